import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import type { SubmissionResult } from "@conform-to/react";
import { InputField } from "~/components/ui/input-field";
import { SIGN_IN_CODE_RULES } from "~/features/auth/sign-in-code-rules";
import { EmailField } from "~/features/messages/ui/message-fields";
import { PublicForm } from "~/features/messages/ui/public-form";
import { sendCodeSchema, signInWithCodeSchema } from "../sign-in-schemas";

/** The first step: the address a sign-in code goes to. */
export function SendCodeForm({
  email,
  lastResult,
  submitLabel = "Email me a sign-in code",
}: {
  email?: string;
  lastResult?: SubmissionResult<string[]>;
  submitLabel?: string;
}) {
  return (
    <PublicForm
      schema={sendCodeSchema}
      action={ACCOUNT_SIGN_IN_PATH}
      submitLabel={submitLabel}
      lastResult={lastResult}
      defaultValue={{ email }}
    >
      {(fields) => (
        <>
          <input type="hidden" name="intent" value="send-code" />
          <EmailField field={fields.email} />
        </>
      )}
    </PublicForm>
  );
}

/** The second: the code from the e-mail, already filled in when the person came by its link. */
export function CodeForm({
  email,
  code,
  lastResult,
}: {
  email: string;
  code?: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <PublicForm
      schema={signInWithCodeSchema}
      action={ACCOUNT_SIGN_IN_PATH}
      submitLabel="Sign in"
      lastResult={lastResult}
      defaultValue={{ code }}
    >
      {(fields) => (
        <>
          <input type="hidden" name="intent" value="sign-in" />
          <input type="hidden" name="email" value={email} />
          <InputField
            field={fields.code}
            label="Sign-in code"
            description={`${SIGN_IN_CODE_RULES.digits} digits, from the e-mail we sent to ${email}.`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={SIGN_IN_CODE_RULES.digits + 2}
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
        </>
      )}
    </PublicForm>
  );
}
