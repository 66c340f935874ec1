import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Undo2 } from "lucide-react";
import { Form } from "react-router";
import { Field, withoutKey } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { InputField } from "~/components/ui/input-field";
import { StatusButton } from "~/components/ui/status-button";
import { Textarea } from "~/components/ui/textarea";
import { useIsPending } from "~/components/ui/use-is-pending";
import { refundSchema } from "~/features/payments/refund";
import type { CurrencyCode } from "~/lib/currency";
import { formatAmountFr } from "~/lib/format-fr";

/**
 * The back office's refund form (refundSchema): an amount in major units and a reason, for all or
 * part of what can still be refunded. The page gives a fresh idempotency key with each load, so that
 * a second click sends the same key and refunds nothing more. The server checks the cap again.
 */
export function RefundForm({
  id,
  action,
  refundable,
  currency,
  idempotencyKey,
  lastResult,
  hidden,
}: {
  /** Unique on the page: the fields' ids are made from it. */
  id: string;
  /** Where the form posts. */
  action: string;
  /** What can still be refunded, in minor units of `currency`. */
  refundable: number;
  currency: CurrencyCode;
  idempotencyKey: string;
  /** The server's answer to this form's last submission, if it refused it. */
  lastResult?: SubmissionResult<string[]>;
  /** A field sent with the form to say what is refunded, e.g. the invoice's id, when the page has several. */
  hidden?: { name: string; value: string };
}) {
  const pending = useIsPending({ formAction: action, fields: hidden ? { [hidden.name]: hidden.value } : undefined });
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(refundSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundSchema }),
  });
  const maximum = formatAmountFr(refundable, currency);
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      {hidden ? <input type="hidden" name={hidden.name} value={hidden.value} /> : null}
      <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
      <InputField
        field={fields.amount}
        label={`Montant à rembourser (${currency})`}
        description={`${maximum} au plus, par exemple 12,50.`}
        inputMode="decimal"
        autoComplete="off"
      />
      <Field field={fields.reason} label="Motif" description="Visible dans l'historique des remboursements.">
        <Textarea {...withoutKey(getTextareaProps(fields.reason))} rows={2} />
      </Field>
      <StatusButton
        pending={pending}
        pendingLabel="Remboursement..."
        icon={<Undo2 aria-hidden="true" />}
        variant="outline"
        className="justify-self-start"
      >
        Rembourser
      </StatusButton>
    </Form>
  );
}
