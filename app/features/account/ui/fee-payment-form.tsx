import { useSubmit } from "react-router";
import { CreditCard, ShieldCheck } from "lucide-react";
import { SectionCard } from "~/components/layout/section-card";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-alert";
import { StripeCardField, useStripeCardElement } from "~/features/payments/ui/stripe-card-field";
import type { StripeJs } from "~/features/payments/ui/stripe-js";

export interface FeePaymentProps {
  /** "€49.00" */
  amount: string;
  clientSecret: string;
  awaitsAuthentication: boolean;
  card: { brand: string; last4: string; ref: string } | null;
  invoiceRef: string;
  hostedFields: { publishableKey: string; scriptUrl: string };
}

/**
 * A provider-billed fee paid in the browser (ADR 018): Stripe.js confirms the fee's own payment,
 * with the card on file (passing the bank's 3-D Secure step) or a new card typed into Stripe's
 * field, which is then kept for the next fees. Our server is only told to look: it reads the
 * outcome from Stripe.
 */
export function FeePaymentForm({
  amount,
  clientSecret,
  awaitsAuthentication,
  card,
  invoiceRef,
  hostedFields,
}: FeePaymentProps) {
  const submit = useSubmit();
  const { mountPoint, fields, problem, busy, confirmWith } = useStripeCardElement(hostedFields);
  const confirm = (data: Parameters<StripeJs["confirmCardPayment"]>[1]) =>
    confirmWith(
      (stripe) => stripe.confirmCardPayment(clientSecret, data),
      () => submit({ invoiceRef }, { method: "post" }),
    );

  return (
    <div className="grid grid-cols-1 gap-6">
      <FormAlert id="fee-payment-error" errors={problem ? [problem] : undefined} />
      {card ? (
        <SectionCard title={awaitsAuthentication ? "Confirm with your bank" : "Your card on file"} large>
          <div className="grid gap-4">
            <p>
              {awaitsAuthentication
                ? `Your bank asks you to confirm the payment of ${amount} with your ${card.brand} card ending ${card.last4}. Nothing has been charged yet.`
                : `Try your ${card.brand} card ending ${card.last4} again, if the reason it was declined is solved.`}
            </p>
            <div>
              <Button
                type="button"
                size="lg"
                disabled={busy}
                onClick={() => confirm(awaitsAuthentication ? undefined : { payment_method: card.ref })}
              >
                <ShieldCheck aria-hidden="true" />
                {awaitsAuthentication ? `Confirm and pay ${amount}` : `Pay ${amount} with this card`}
              </Button>
            </div>
          </div>
        </SectionCard>
      ) : null}
      <SectionCard title="Pay with another card" large>
        <form
          className="grid grid-cols-1 gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void confirmWith(
              (stripe, card) =>
                stripe.confirmCardPayment(clientSecret, {
                  payment_method: { card },
                  setup_future_usage: "off_session",
                }),
              () => submit({ invoiceRef }, { method: "post" }),
            );
          }}
        >
          <StripeCardField mountPoint={mountPoint} fields={fields} />
          <p className="text-sm text-muted-foreground">
            This card pays the fee now and your next fees. Your bank may ask you to confirm the payment.
          </p>
          <div>
            <Button type="submit" size="lg" variant={card ? "outline" : "default"} disabled={busy}>
              <CreditCard aria-hidden="true" />
              {`Pay ${amount}`}
            </Button>
          </div>
        </form>
      </SectionCard>
    </div>
  );
}
