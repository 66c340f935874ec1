import { type FieldMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { CreditCard, Lock } from "lucide-react";
import { Form, Link } from "react-router";
import { CheckboxField } from "~/components/ui/checkbox-field";
import { cardSchema } from "~/features/payments/card";
import { CardFields } from "~/features/payments/ui/card-fields";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { OrderTerms } from "../order-terms";
import { startConsentShape } from "../start-consent";

const LINK = "font-medium text-link underline underline-offset-4";

/** What the sandbox's form posts: the card, and the request to start at once. */
export function cardPaymentSchema(now: Date) {
  return cardSchema(now).extend(startConsentShape);
}

/**
 * The card form. The server never sends the card number or CVV back, so after a refused payment
 * the form is remounted (a new `key` from the caller) with those two fields empty.
 */
export function PaymentForm({
  lastResult,
  expiryYears,
  terms,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  expiryYears: number[];
  terms: OrderTerms;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "payment",
    lastResult,
    constraint: getZodConstraint(cardPaymentSchema(new Date())),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cardPaymentSchema(new Date()) }),
  });

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormAlert id={form.errorId} errors={form.errors} />
      <CardFields fields={fields} expiryYears={expiryYears} />
      <FinishAndAssurances pending={pending} terms={terms} consent={fields.consent} />
    </Form>
  );
}

/**
 * The consent box, what is bought and what follows, right above the button that names the
 * obligation to pay (ADR 019), and what the spec says under it: the same whoever takes the card.
 */
export function FinishAndAssurances({
  pending,
  terms,
  consent,
}: {
  pending: boolean;
  terms: OrderTerms;
  consent: FieldMetadata<string>;
}) {
  return (
    <>
      <ConsentAndTerms terms={terms} consent={consent} />
      <StatusButton pending={pending} pendingLabel="Processing..." size="lg" className="w-full">
        {terms.button}
      </StatusButton>
      <div className="grid gap-2 text-sm text-muted-foreground">
        <p className="flex items-center gap-2 font-medium text-foreground">
          <Lock className="size-4" aria-hidden="true" />
          Secure Payment
        </p>
        <p className="flex items-center gap-2">
          <CreditCard className="size-4" aria-hidden="true" />
          Visa or Mastercard only
        </p>
        <p>
          The charge will appear on your bank statement as{" "}
          <span className="font-medium text-foreground">{STATEMENT_DESCRIPTOR}</span>.
        </p>
      </div>
    </>
  );
}

/** The consent box and the terms under it: what is bought, the total now, what follows. */
export function ConsentAndTerms({ terms, consent }: { terms: OrderTerms; consent: FieldMetadata<string> }) {
  return (
    <>
      <CheckboxField field={consent} label={terms.consent} />
      <div className="grid gap-1 rounded-md bg-muted/60 p-4 text-sm" data-testid="order-terms">
        <p>{terms.bought}</p>
        <p className="font-semibold">{terms.totalNow}</p>
        {terms.membership ? <p>{terms.membership}</p> : null}
        <p>
          See our{" "}
          <Link to="/terms" className={LINK}>
            Terms and Conditions
          </Link>{" "}
          and{" "}
          <Link to="/subscription-terms" className={LINK}>
            Subscription Terms
          </Link>
          .
        </p>
      </div>
    </>
  );
}
