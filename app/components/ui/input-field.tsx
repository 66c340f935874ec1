import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type * as React from "react";
import { Field, withoutKey } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** The common field: an input, with Conform's props for it (id, name, constraints, what was typed). */
export function InputField({
  field,
  label,
  description,
  className,
  type = "text",
  ...inputProps
}: {
  field: FieldMetadata<string>;
  label: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
  type?: "text" | "email" | "tel" | "password" | "date";
} & Omit<React.ComponentProps<typeof Input>, "id" | "name" | "type" | "className">) {
  return (
    <Field field={field} label={label} description={description} className={className}>
      <Input {...withoutKey(getInputProps(field, { type }))} {...inputProps} />
    </Field>
  );
}
