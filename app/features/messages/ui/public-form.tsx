import { useForm, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useFetcher, useLocation, type FetcherWithComponents } from "react-router";
import { toast } from "~/components/ui/toast";
import type { z } from "zod";
import { cn } from "~/lib/class-names";
import { firstErrorMessage, type FormActionData } from "~/lib/form-result";
import { useFocusFirstInvalidField } from "~/lib/use-focus-first-invalid-field";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { HoneypotField } from "./honeypot-field";

/** Marks the submit events Conform dispatches itself to validate a field as the person types. */
const CONFORM_INTENT_FIELD = "__intent__";

type Fields<Schema extends z.ZodObject> = ReturnType<FormMetadata<z.input<Schema>, string[]>["getFieldset"]>;

interface PublicFormProps<Schema extends z.ZodObject> {
  schema: Schema;
  action: string;
  submitLabel: string;
  /** The route's action data, after a submission made without JavaScript. */
  lastResult?: SubmissionResult<string[]>;
  /** What the fields hold before anyone types (an address the page already knows). */
  defaultValue?: Partial<Record<keyof z.input<Schema>, string>>;
  className?: string;
  /** The form's fields, given Conform's metadata for each (ids, errors, what was typed). */
  children: (fields: Fields<Schema>) => ReactNode;
}

/**
 * A public form: the first error of a refused submission is shown as an error toast and next to its
 * field, the button reads 'Sending...' while busy, and a bot trap rides along. On a hydrated page the
 * schema also validates in the browser and the form posts through a fetcher so the page stays put;
 * on a page sent without React's scripts (ADR 013) it posts natively, the server validates, and the
 * page that answers a refusal is hydrated to show it. After a successful submission (the action
 * redirects) the form starts again, empty.
 */
export function PublicForm<Schema extends z.ZodObject>(props: PublicFormProps<Schema>) {
  const fetcher = useFetcher<FormActionData>();
  const successes = useSubmissionsThatNavigated(fetcher.state !== "idle");
  return <PublicFormBody key={successes} fetcher={fetcher} {...props} />;
}

/**
 * Counts the submissions during which the page changed, which is what the action's redirect after a
 * success does. Other navigations (a tab that changes the hash) leave the form and its text alone.
 */
function useSubmissionsThatNavigated(busy: boolean) {
  const { key } = useLocation();
  const [submittedFrom, setSubmittedFrom] = useState<string>();
  const [count, setCount] = useState(0);
  if (busy && submittedFrom === undefined) setSubmittedFrom(key);
  if (!busy && submittedFrom !== undefined) {
    setSubmittedFrom(undefined);
    if (key !== submittedFrom) setCount(count + 1);
  }
  return count;
}

function PublicFormBody<Schema extends z.ZodObject>({
  fetcher,
  schema,
  action,
  submitLabel,
  lastResult,
  defaultValue,
  className,
  children,
}: PublicFormProps<Schema> & { fetcher: FetcherWithComponents<FormActionData> }) {
  const result = fetcher.data?.result ?? lastResult;
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    lastResult: result,
    defaultValue: defaultValue as Parameters<typeof useForm<z.input<Schema>>>[0]["defaultValue"],
    constraint: getZodConstraint(schema),
    // Not on blur: a message appearing as the field loses focus would move the button from under the click.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const pending = fetcher.state !== "idle";

  useFocusFirstInvalidField(form.id, result);
  const serverError = firstErrorMessage(result?.error);
  useEffect(() => {
    if (serverError) toast.error(serverError);
  }, [result, serverError]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    form.onSubmit(event);
    // Conform cancels the submit when the browser-side validation fails.
    if (!event.defaultPrevented) return;
    const formData = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    if (formData.has(CONFORM_INTENT_FIELD)) return;
    const message = firstErrorMessage(parseWithZod(formData, { schema }).reply().error);
    if (message) toast.error(message);
  }

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
        // Without JavaScript there is no toast: the first error is printed here instead.
        <noscript>
          <FormAlert errors={[serverError]} />
        </noscript>
      ) : null}
      <HoneypotField />
      {children(fields)}
      <FormAlert id={form.errorId} errors={form.errors} />
      <StatusButton pending={pending} pendingLabel="Sending..." size="lg" withoutReact>
        {submitLabel}
      </StatusButton>
    </fetcher.Form>
  );
}
