import type { SubmissionResult } from "@conform-to/react";
import { unsubscribeSchema } from "~/features/messages/schemas";
import { EmailField } from "~/features/messages/ui/message-fields";
import { PublicForm } from "~/features/messages/ui/public-form";

/** The /unsubscribe form: the e-mail address to send the confirmation link to. */
export function UnsubscribeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <PublicForm schema={unsubscribeSchema} action="/unsubscribe" submitLabel="Unsubscribe" lastResult={lastResult}>
      {(fields) => <EmailField field={fields.email} />}
    </PublicForm>
  );
}
