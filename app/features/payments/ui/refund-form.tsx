import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Undo2 } from "lucide-react";
import { Form } from "react-router";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Field, withoutKey } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { InputField } from "~/components/ui/input-field";
import { StatusButton } from "~/components/ui/status-button";
import { Textarea } from "~/components/ui/textarea";
import { useIsPending } from "~/components/ui/use-is-pending";
import {
  formatMajorAmount,
  MAX_REFUND_REASON_LENGTH,
  REFUND_WITHIN_DAYS,
  refundSchema,
  type FullRefundStep,
} from "~/features/payments/refund";
import type { CurrencyCode } from "~/lib/currency";
import { formatAmountFr } from "~/lib/format-fr";

/**
 * The back office's refund form (refundSchema, French): an amount, prefilled with all that is left
 * to refund, and a reason. The page gives a fresh idempotency key with each load, so that a second
 * click sends the same key and refunds nothing more; give the form that key as its React `key` too,
 * so that it starts afresh after a refund. The server checks the cap again, and asks for a step that
 * confirms refunding all that is left (`confirmFull`), which cannot be undone.
 */
interface RefundFormProps {
  /** Unique on the page: the fields' ids are made from it. */
  id?: string;
  /** Where the form posts; the page's own action when not given. */
  action?: string;
  /** What can still be refunded, in minor units of `currency`. */
  refundable: number;
  currency: CurrencyCode;
  idempotencyKey: string;
  /** The server's answer to this form's last submission, if it refused it. */
  lastResult?: SubmissionResult<string[]>;
  /** Sent with the form: which of a page's forms this is, or what it refunds (an invoice's id). */
  hidden?: { name: string; value: string };
  /** All that is left was asked for: the step that confirms it takes the form's place. */
  confirmFull?: FullRefundStep;
}

export function RefundForm({ confirmFull, ...form }: RefundFormProps) {
  if (!confirmFull) return <AmountForm {...form} />;
  const { action, currency, hidden } = form;
  return (
    <ConfirmStep
      action={action ?? "."}
      question={`Rembourser la totalité, ${formatAmountFr(confirmFull.amount, currency)} ?`}
      consequence={`Tout ce qui reste est rendu sur la carte du client, sous ${REFUND_WITHIN_DAYS} jours, et il en reçoit un e-mail. C'est définitif.`}
      confirmLabel="Oui, tout rembourser"
      backTo={action ?? "."}
      backLabel="Ne pas rembourser"
    >
      {hidden ? <input type="hidden" name={hidden.name} value={hidden.value} /> : null}
      <input type="hidden" name="idempotencyKey" value={confirmFull.idempotencyKey} />
      <input type="hidden" name="amount" value={formatMajorAmount(confirmFull.amount)} />
      <input type="hidden" name="reason" value={confirmFull.reason} />
    </ConfirmStep>
  );
}

function AmountForm({
  id = "refund",
  action,
  refundable,
  currency,
  idempotencyKey,
  lastResult,
  hidden,
}: Omit<RefundFormProps, "confirmFull">) {
  const pending = useIsPending({ formAction: action, fields: hidden ? { [hidden.name]: hidden.value } : undefined });
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: { amount: formatMajorAmount(refundable) },
    constraint: getZodConstraint(refundSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      {hidden ? <input type="hidden" name={hidden.name} value={hidden.value} /> : null}
      <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
      <InputField
        field={fields.amount}
        label={`Montant à rembourser (${currency})`}
        description={`Au plus ${formatAmountFr(refundable, currency)}.`}
        inputMode="decimal"
        autoComplete="off"
        className="max-w-64"
      />
      <Field field={fields.reason} label="Motif" description="Enregistré avec le remboursement, votre nom et la date.">
        <Textarea {...withoutKey(getTextareaProps(fields.reason))} maxLength={MAX_REFUND_REASON_LENGTH} rows={2} />
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
