import type { SubmissionResult } from "@conform-to/react";
import { InputField } from "~/components/ui/input-field";
import { contactSchema, FIELD_LIMITS } from "~/features/messages/schemas";
import { EmailField, MessageField } from "./message-fields";
import { PublicForm } from "./public-form";

/** The /contact form: first name, last name, email, phone and message. */
export function ContactForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <PublicForm schema={contactSchema} action="/contact" submitLabel="Submit Now" lastResult={lastResult}>
      {(fields) => (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <InputField
              field={fields.firstName}
              label="First name"
              maxLength={FIELD_LIMITS.firstName}
              autoComplete="given-name"
            />
            <InputField
              field={fields.lastName}
              label="Last name"
              maxLength={FIELD_LIMITS.lastName}
              autoComplete="family-name"
            />
            <EmailField field={fields.email} />
            <InputField
              field={fields.phone}
              label="Phone"
              type="tel"
              maxLength={FIELD_LIMITS.phone}
              autoComplete="tel"
            />
          </div>
          <MessageField field={fields.message} />
        </>
      )}
    </PublicForm>
  );
}
