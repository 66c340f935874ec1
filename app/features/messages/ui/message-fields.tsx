import type { FieldMetadata } from "@conform-to/react";
import { FIELD_LIMITS } from "~/features/messages/schemas";
import { FormField } from "~/components/ui/public-form-field";

/** The e-mail field every public form asks for. */
export function EmailField({ field }: { field: FieldMetadata<string> }) {
  return <FormField field={field} label="Email" type="email" maxLength={FIELD_LIMITS.email} autoComplete="email" />;
}

/** The free-text message of the contact forms. */
export function MessageField({ field }: { field: FieldMetadata<string> }) {
  return <FormField field={field} label="Message" multiline maxLength={FIELD_LIMITS.message} />;
}
