import type { SubmissionResult } from "@conform-to/react";
import { FIELD_LIMITS, unsubscribeSchema } from "~/features/messages/schemas";
import { FormField } from "./form-field";
import { FreshAfterNavigation, PublicForm, usePublicForm } from "./public-form";

/** The /unsubscribe form: the e-mail address to send the confirmation link to. */
export function UnsubscribeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <FreshAfterNavigation>
      <UnsubscribeFormFields lastResult={lastResult} />
    </FreshAfterNavigation>
  );
}

function UnsubscribeFormFields({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const state = usePublicForm(unsubscribeSchema, lastResult);
  return (
    <PublicForm state={state} action="/unsubscribe" submitLabel="Unsubscribe">
      <FormField
        field={state.fields.email}
        label="Email"
        type="email"
        maxLength={FIELD_LIMITS.email}
        autoComplete="email"
      />
    </PublicForm>
  );
}
