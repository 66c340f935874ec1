import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Fragment, useEffect, type FormEvent, type ReactNode } from "react";
import { useFetcher, useLocation } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/class-names";
import { firstErrorMessage, type FormActionData } from "~/lib/form-result";
import { HoneypotField } from "./honeypot-field";

/** Marks the submit events Conform dispatches itself to validate a field on blur or input. */
const CONFORM_INTENT_FIELD = "__intent__";

/**
 * A public form's state: the schema validates in the browser (the server checks again), the first
 * error of a refused submission is shown as an error toast, and the form posts through a fetcher so
 * the page stays put. `lastResult` is the route's action data after a submission without JavaScript.
 */
export function usePublicForm<Schema extends z.ZodObject>(schema: Schema, lastResult?: SubmissionResult<string[]>) {
  const fetcher = useFetcher<FormActionData>();
  const result = fetcher.data?.result ?? lastResult;
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    lastResult: result,
    constraint: getZodConstraint(schema),
    // Not on blur: a message appearing as the field loses focus would move the button from under the click.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });

  const serverError = firstErrorMessage(result?.error);
  useEffect(() => {
    if (serverError) toast.error(serverError);
  }, [result, serverError]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    form.onSubmit(event);
    // Conform cancels the submit when the browser-side validation fails.
    if (!event.defaultPrevented) return;
    const formData = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    // Conform's own submit events (validating a field as the person types) are not a person submitting.
    if (formData.has(CONFORM_INTENT_FIELD)) return;
    const message = firstErrorMessage(parseWithZod(formData, { schema }).reply().error);
    if (message) toast.error(message);
  }

  return { fetcher, form, fields, onSubmit, serverError, busy: fetcher.state !== "idle" };
}

type PublicFormState = ReturnType<typeof usePublicForm>;

interface PublicFormProps {
  state: Pick<PublicFormState, "fetcher" | "form" | "onSubmit" | "serverError" | "busy">;
  action: string;
  submitLabel: string;
  children: ReactNode;
  className?: string;
  submitClassName?: string;
}

/**
 * The form element with what every public form shares: the honeypot, the whole-form error, the
 * submit button that reads 'Sending...' while busy, and, without JavaScript (no toasts), the first
 * error printed at the top.
 */
export function PublicForm({ state, action, submitLabel, children, className, submitClassName }: PublicFormProps) {
  const { fetcher, form, onSubmit, serverError, busy } = state;
  return (
    <fetcher.Form
      method="post"
      action={action}
      id={form.id}
      noValidate={form.noValidate}
      onSubmit={onSubmit}
      className={cn("relative grid gap-5", className)}
    >
      {serverError ? (
        <noscript>
          <p
            role="alert"
            className="rounded-md border border-destructive bg-destructive/10 px-4 py-3 text-sm font-medium"
          >
            {serverError}
          </p>
        </noscript>
      ) : null}
      <HoneypotField />
      {children}
      {form.errors?.[0] ? (
        <p id={form.errorId} role="alert" className="text-sm font-medium text-destructive">
          {form.errors[0]}
        </p>
      ) : null}
      <Button type="submit" size="lg" disabled={busy} className={submitClassName}>
        {busy ? "Sending..." : submitLabel}
      </Button>
    </fetcher.Form>
  );
}

/**
 * Gives its children a fresh start after every navigation: once a submission redirects back to the
 * page, the form below is mounted again, empty.
 */
export function FreshAfterNavigation({ children }: { children: ReactNode }) {
  const { key } = useLocation();
  return <Fragment key={key}>{children}</Fragment>;
}
