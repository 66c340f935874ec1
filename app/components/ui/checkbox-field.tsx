import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type * as React from "react";
import { FieldError, fieldIds, withoutKey } from "~/components/ui/field";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/class-names";

/** A box to tick, its label beside it and its error under it, with Conform's props (name, required, what was ticked). */
export function CheckboxField({
  field,
  label,
  className,
}: {
  field: FieldMetadata<string>;
  label: React.ReactNode;
  className?: string;
}) {
  const ids = fieldIds(field.id);
  return (
    <div data-slot="field" className={cn("grid gap-2", className)}>
      <div className="flex items-start gap-3">
        <input
          {...withoutKey(getInputProps(field, { type: "checkbox" }))}
          className="mt-1 size-5 shrink-0 accent-primary"
        />
        <Label id={ids.label} htmlFor={field.id} className="text-sm leading-6 font-normal">
          {label}
        </Label>
      </div>
      <FieldError id={ids.error} errors={field.errors} />
    </div>
  );
}
