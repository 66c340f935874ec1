import type { SubmissionResult } from "@conform-to/react";
import { FIELD_LIMITS, unsubscribeSchema } from "~/features/messages/schemas";
import { FormField } from "./form-field";
import { PublicForm } from "./public-form";

/** The /unsubscribe form: the e-mail address to send the confirmation link to. */
export function UnsubscribeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <PublicForm schema={unsubscribeSchema} action="/unsubscribe" submitLabel="Unsubscribe" lastResult={lastResult}>
      {(fields) => (
        <FormField
          field={fields.email}
          label="Email"
          type="email"
          maxLength={FIELD_LIMITS.email}
          autoComplete="email"
        />
      )}
    </PublicForm>
  );
}
