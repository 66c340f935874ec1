import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { FieldError, fieldIds, withoutKey } from "~/components/ui/field";
import { cn } from "~/lib/class-names";

/** One choice among a few, as native radio buttons in a fieldset, with Conform's props (name, required, what was chosen). */
export function RadioField<Value extends string>({
  field,
  legend,
  options,
  className,
}: {
  field: FieldMetadata<Value>;
  legend: string;
  options: readonly { value: Value; label: string }[];
  className?: string;
}) {
  const ids = fieldIds(field.id);
  const labels = new Map(options.map((option) => [option.value as string, option.label]));
  return (
    <fieldset
      data-slot="field"
      className={cn("grid gap-2", className)}
      aria-invalid={field.errors?.length ? true : undefined}
      aria-describedby={field.errors?.length ? ids.error : undefined}
    >
      <legend className="mb-2 text-sm leading-none font-medium">{legend}</legend>
      {getCollectionProps(field, { type: "radio", options: options.map((option) => option.value) }).map((props) => (
        <label key={props.key} className="flex items-center gap-3 text-sm">
          <input {...withoutKey(props)} className="size-4 shrink-0 accent-primary" />
          {labels.get(props.value)}
        </label>
      ))}
      <FieldError id={ids.error} errors={field.errors} />
    </fieldset>
  );
}
