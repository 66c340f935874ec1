import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/class-names";

interface FormFieldProps {
  field: FieldMetadata<string>;
  label: string;
  /** Inputs stop accepting characters here, as the schema does. */
  maxLength: number;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  multiline?: boolean;
  className?: string;
}

/** A label, its input and, when invalid, the message the input points to (aria-describedby). */
export function FormField({
  field,
  label,
  maxLength,
  type = "text",
  autoComplete,
  multiline,
  className,
}: FormFieldProps) {
  const { key, ...controlProps } = multiline ? getTextareaProps(field) : getInputProps(field, { type });
  const error = field.errors?.[0];
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={field.id}>{label}</Label>
      {multiline ? (
        <Textarea key={key} {...controlProps} maxLength={maxLength} rows={5} className="min-h-32" />
      ) : (
        <Input key={key} {...controlProps} type={type} maxLength={maxLength} autoComplete={autoComplete} />
      )}
      {error ? (
        <p id={field.errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
