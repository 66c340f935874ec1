import { getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Field, withoutKey } from "~/components/ui/field";
import { InputField } from "~/components/ui/input-field";
import { Textarea } from "~/components/ui/textarea";
import { FIELD_LIMITS } from "~/features/messages/schemas";

/** The e-mail field every public form asks for. */
export function EmailField({ field }: { field: FieldMetadata<string> }) {
  return <InputField field={field} label="Email" type="email" maxLength={FIELD_LIMITS.email} autoComplete="email" />;
}

/** The free-text message of the contact forms. */
export function MessageField({ field }: { field: FieldMetadata<string> }) {
  return (
    <Field field={field} label="Message">
      <Textarea
        {...withoutKey(getTextareaProps(field))}
        maxLength={FIELD_LIMITS.message}
        rows={5}
        className="min-h-32"
      />
    </Field>
  );
}
