import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Field, withoutKey } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { InputField } from "~/components/ui/input-field";
import { StatusButton } from "~/components/ui/status-button";
import { Textarea } from "~/components/ui/textarea";
import { useIsPending } from "~/components/ui/use-is-pending";
import { formatMajorAmount, MAX_REFUND_REASON_LENGTH, refundSchema } from "~/features/payments/refund";
import type { CurrencyCode } from "~/lib/currency";
import { formatAmountFr } from "~/lib/format-fr";

/**
 * The back office's refund form (French): an amount, prefilled with all that is left to refund, and
 * a reason. The server checks the cap again. Give it a new `key` with each new idempotency key, so
 * that it starts afresh after a refund.
 */
export function RefundForm({
  action,
  refundable,
  currency,
  idempotencyKey,
  lastResult,
  hidden,
}: {
  /** Where the form posts; the page's own action when not given. */
  action?: string;
  /** What may still be refunded, in minor units of `currency`. */
  refundable: number;
  currency: CurrencyCode;
  /** Made afresh for each page load: sending the same form twice refunds once. */
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]>;
  /** Sent with the form: which of a page's forms this is, or what it refunds. */
  hidden?: { name: string; value: string };
}) {
  const pending = useIsPending({ formAction: action, fields: hidden ? { [hidden.name]: hidden.value } : undefined });
  const [form, fields] = useForm({
    id: hidden ? `refund-${hidden.value}` : "refund",
    lastResult,
    defaultValue: { amount: formatMajorAmount(refundable) },
    constraint: getZodConstraint(refundSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      {hidden ? <input type="hidden" name={hidden.name} value={hidden.value} /> : null}
      <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
      <InputField
        field={fields.amount}
        label={`Montant (${currency})`}
        description={`Au plus ${formatAmountFr(refundable, currency)}.`}
        inputMode="decimal"
        autoComplete="off"
        className="max-w-48"
      />
      <Field field={fields.reason} label="Motif" description="Enregistré avec le remboursement, votre nom et la date.">
        <Textarea {...withoutKey(getTextareaProps(fields.reason))} maxLength={MAX_REFUND_REASON_LENGTH} rows={3} />
      </Field>
      <StatusButton pending={pending} pendingLabel="Remboursement..." className="justify-self-start">
        Rembourser
      </StatusButton>
    </Form>
  );
}
