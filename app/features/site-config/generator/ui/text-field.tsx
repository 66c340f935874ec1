import type * as React from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/class-names";

interface TextFieldProps extends React.ComponentProps<typeof Input> {
  name: string;
  label: string;
  error?: string;
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function TextField({ name, label, error, className, ...inputProps }: TextFieldProps) {
  const errorId = `${name}-error`;
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={name}>
        {label}
        {inputProps.required ? (
          <span aria-hidden="true" className="text-destructive">
            *
          </span>
        ) : null}
      </Label>
      <Input
        id={name}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A field's error message, for its input's aria-describedby. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {error}
    </p>
  );
}
