import type * as React from "react";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/class-names";

interface FieldMeta {
  id: string;
  errorId: string;
  errors?: string[];
}

/** A label, its control and the first error message, tied together for assistive technology. */
export function FormField({
  field,
  label,
  className,
  children,
}: {
  field: FieldMeta;
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("grid content-start gap-2", className)}>
      <Label id={labelId(field)} htmlFor={field.id}>
        {label}
      </Label>
      {children}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** The id of a field's label, for controls that name themselves with it and more. */
export function labelId(field: Pick<FieldMeta, "id">) {
  return `${field.id}-label`;
}

export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {errors[0]}
    </p>
  );
}

/** Errors about the whole form (a refused submission, a failed save, a declined card). */
export function FormAlert({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive"
    >
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

/** Conform's control props minus `key`, which React wants passed directly rather than spread. */
export function withoutKey<T extends { key?: unknown }>({ key: _key, ...props }: T) {
  return props;
}
