import { getFormProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState, type ReactNode } from "react";
import { Form } from "react-router";
import type { z } from "zod";
import { InputField } from "~/components/ui/input-field";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { signInSchema, signUpSchema } from "~/features/auth/schemas";

export type AuthIntent = "sign-in" | "sign-up";

/**
 * How many answers the server has given this form. Password inputs are keyed on it, so they start
 * empty after each answer: the server never sends a password back, and the browser drops it too.
 */
function useAnswerCount(lastResult: SubmissionResult<string[]> | undefined) {
  const [answers, setAnswers] = useState({ last: lastResult, count: 0 });
  if (answers.last !== lastResult) setAnswers({ last: lastResult, count: answers.count + 1 });
  return answers.count;
}

type Fields<Schema extends z.ZodObject> = ReturnType<FormMetadata<z.input<Schema>, string[]>["getFieldset"]>;

/** Where each form posts, its button's label, and what the button says while the form is being sent. */
const AUTH_FORMS = {
  "sign-in": { action: "/auth", label: "Se connecter", pendingLabel: "Connexion..." },
  "sign-up": { action: "/auth?tab=inscription", label: "Créer mon compte", pendingLabel: "Création..." },
} as const satisfies Record<AuthIntent, { action: string; label: string; pendingLabel: string }>;

interface AuthFormProps<Schema extends z.ZodObject> {
  intent: AuthIntent;
  schema: Schema;
  lastResult?: SubmissionResult<string[]>;
  /** The form's fields, given Conform's metadata for each and the count of the server's answers. */
  children: (fields: Fields<Schema>, answers: number) => ReactNode;
}

/** A sign-in or sign-up form: its error beside the fields (and in the toast), validated on blur. */
function AuthForm<Schema extends z.ZodObject>({ intent, schema, lastResult, children }: AuthFormProps<Schema>) {
  const { action, label, pendingLabel } = AUTH_FORMS[intent];
  const answers = useAnswerCount(lastResult);
  const pending = useIsPending({ formAction: action });
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id: intent,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" action={action} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <FormAlert id={form.errorId} errors={form.errors} />
      {children(fields, answers)}
      <StatusButton pending={pending} pendingLabel={pendingLabel} size="lg">
        {label}
      </StatusButton>
    </Form>
  );
}

/** A password input. Keyed on the count of the server's answers, so it starts empty after each. */
function PasswordField({
  field,
  answers,
  label,
  autoComplete,
}: {
  field: FieldMetadata<string>;
  answers: number;
  label: string;
  autoComplete: "current-password" | "new-password";
}) {
  return <InputField key={answers} field={field} label={label} type="password" autoComplete={autoComplete} />;
}

export function SignInForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <AuthForm intent="sign-in" schema={signInSchema} lastResult={lastResult}>
      {(fields, answers) => (
        <>
          <InputField field={fields.email} label="E-mail" type="email" autoComplete="email" />
          <PasswordField
            field={fields.password}
            answers={answers}
            label="Mot de passe"
            autoComplete="current-password"
          />
        </>
      )}
    </AuthForm>
  );
}

export function SignUpForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <AuthForm intent="sign-up" schema={signUpSchema} lastResult={lastResult}>
      {(fields, answers) => (
        <>
          <InputField field={fields.fullName} label="Nom complet" autoComplete="name" />
          <InputField field={fields.email} label="E-mail" type="email" autoComplete="email" />
          <PasswordField field={fields.password} answers={answers} label="Mot de passe" autoComplete="new-password" />
          <PasswordField
            field={fields.confirmPassword}
            answers={answers}
            label="Confirmer le mot de passe"
            autoComplete="new-password"
          />
        </>
      )}
    </AuthForm>
  );
}
