import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { signInSchema, signUpSchema } from "~/features/auth/schemas";

export type AuthIntent = "sign-in" | "sign-up";

/** Whether this form's submission (and the navigation after it) is under way. */
function useSubmitting(intent: AuthIntent) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

/**
 * How many answers the server has given this form. Password inputs are keyed on it, so they start
 * empty after each answer: the server never sends a password back, and the browser drops it too.
 */
function useAnswerCount(lastResult: SubmissionResult<string[]> | undefined) {
  const [answers, setAnswers] = useState({ last: lastResult, count: 0 });
  if (answers.last !== lastResult) setAnswers({ last: lastResult, count: answers.count + 1 });
  return answers.count;
}

interface FieldProps {
  meta: FieldMetadata<string>;
  label: string;
  type: "text" | "email" | "password";
  autoComplete: string;
}

function Field({ meta, label, type, autoComplete }: FieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type });
  return (
    <div className="grid gap-2">
      <Label htmlFor={meta.id}>{label}</Label>
      <Input key={key} {...inputProps} autoComplete={autoComplete} />
      {meta.errors?.length ? (
        <p id={meta.errorId} className="text-sm text-destructive">
          {meta.errors[0]}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level error (wrong credentials, too many attempts): beside the form, and in the toast. */
function FormError({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="rounded-md border border-destructive/40 px-3 py-2 text-sm text-destructive">
      {errors[0]}
    </p>
  );
}

const VALIDATE_ON = { shouldValidate: "onBlur", shouldRevalidate: "onInput" } as const;

interface AuthFormProps {
  intent: AuthIntent;
  action: string;
  form: { errorId: string; errors: string[] | undefined };
  formProps: ReturnType<typeof getFormProps>;
  /** The button's label, and what it says while the form is being sent. */
  label: string;
  busyLabel: string;
  children: React.ReactNode;
}

function AuthForm({ intent, action, form, formProps, label, busyLabel, children }: AuthFormProps) {
  const submitting = useSubmitting(intent);
  return (
    <Form method="post" action={action} className="grid gap-4" {...formProps}>
      <input type="hidden" name="intent" value={intent} />
      <FormError id={form.errorId} errors={form.errors} />
      {children}
      <Button type="submit" size="lg" disabled={submitting}>
        {submitting ? busyLabel : label}
      </Button>
    </Form>
  );
}

export function SignInForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const answers = useAnswerCount(lastResult);
  const [form, fields] = useForm({
    id: "sign-in",
    lastResult,
    constraint: getZodConstraint(signInSchema),
    ...VALIDATE_ON,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  return (
    <AuthForm
      intent="sign-in"
      action="/auth"
      form={form}
      formProps={getFormProps(form)}
      label="Se connecter"
      busyLabel="Connexion..."
    >
      <Field meta={fields.email} label="E-mail" type="email" autoComplete="email" />
      <Field
        key={`password-${answers}`}
        meta={fields.password}
        label="Mot de passe"
        type="password"
        autoComplete="current-password"
      />
    </AuthForm>
  );
}

export function SignUpForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const answers = useAnswerCount(lastResult);
  const [form, fields] = useForm({
    id: "sign-up",
    lastResult,
    constraint: getZodConstraint(signUpSchema),
    ...VALIDATE_ON,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  return (
    <AuthForm
      intent="sign-up"
      action="/auth?tab=inscription"
      form={form}
      formProps={getFormProps(form)}
      label="Créer mon compte"
      busyLabel="Création..."
    >
      <Field meta={fields.fullName} label="Nom complet" type="text" autoComplete="name" />
      <Field meta={fields.email} label="E-mail" type="email" autoComplete="email" />
      <Field
        key={`password-${answers}`}
        meta={fields.password}
        label="Mot de passe"
        type="password"
        autoComplete="new-password"
      />
      <Field
        key={`confirm-${answers}`}
        meta={fields.confirmPassword}
        label="Confirmer le mot de passe"
        type="password"
        autoComplete="new-password"
      />
    </AuthForm>
  );
}
