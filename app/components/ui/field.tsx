import { Slot } from "radix-ui";
import type * as React from "react";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/class-names";

/** A field as the form knows it: its control's id and the messages that refuse its value, if any. */
interface FieldState {
  id: string;
  errors?: string[];
}

/** What a field's control carries to be named, described and marked invalid. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** The ids of a field's parts, made from its control's id as Conform makes them. */
export function fieldIds(id: string) {
  return { label: `${id}-label`, description: `${id}-description`, error: `${id}-error` };
}

/**
 * A form field: its label, its control, an optional description and its first error, tied together
 * for assistive technology (`htmlFor`, `aria-invalid`, `aria-describedby`). The control is the one
 * child, which receives those props; a control made of several elements is a function of them.
 * Conform's props on a control (`getInputProps`) name the same ids.
 */
export function Field({
  field,
  label,
  description,
  className,
  children,
}: {
  field: FieldState;
  label: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactElement | ((control: FieldControlProps) => React.ReactNode);
}) {
  const ids = fieldIds(field.id);
  const invalid = Boolean(field.errors?.length);
  const describedBy = [description ? ids.description : null, invalid ? ids.error : null].filter(Boolean).join(" ");
  const control: FieldControlProps = {
    id: field.id,
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy || undefined,
  };
  return (
    <div data-slot="field" className={cn("grid content-start gap-2", className)}>
      <Label id={ids.label} htmlFor={field.id}>
        {label}
      </Label>
      {typeof children === "function" ? children(control) : <Slot.Root {...control}>{children}</Slot.Root>}
      {description ? <FieldDescription id={ids.description}>{description}</FieldDescription> : null}
      <FieldError id={ids.error} errors={field.errors} />
    </div>
  );
}

/** A hint under a control, for its `aria-describedby`. */
export function FieldDescription({ className, ...props }: React.ComponentProps<"p">) {
  return <p data-slot="field-description" className={cn("text-xs text-muted-foreground", className)} {...props} />;
}

/** A field's error: the first message the check gave, for its control's `aria-describedby`. */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} data-slot="field-error" className="text-sm text-destructive">
      {errors[0]}
    </p>
  );
}

/** Conform's control props minus `key`, which React wants passed directly rather than spread. */
export function withoutKey<T extends { key?: unknown }>({ key: _key, ...props }: T) {
  return props;
}
