import { useSubmit } from "react-router";
import { CreditCard } from "lucide-react";
import { SectionCard } from "~/components/layout/section-card";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-alert";
import { StripeCardField, useStripeCardElement } from "~/features/payments/ui/stripe-card-field";

/**
 * A Stripe-billed member's new card (ADR 018): typed into Stripe's Card Element and checked with the
 * bank by Stripe.js (a SetupIntent our server opened; 3-D Secure when the bank asks), with no
 * payment. Our server is then only told which setup to look at, and reads it from Stripe.
 */
export function StripeCardForm({
  clientSecret,
  setupRef,
  hostedFields,
}: {
  clientSecret: string;
  setupRef: string;
  hostedFields: { publishableKey: string; scriptUrl: string };
}) {
  const submit = useSubmit();
  const { mountPoint, fields, problem, busy, confirmWith } = useStripeCardElement(hostedFields);

  function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void confirmWith(
      (stripe, card) => stripe.confirmCardSetup(clientSecret, { payment_method: { card } }),
      () => submit({ setupRef }, { method: "post" }),
    );
  }

  return (
    <SectionCard title="Your new card" large>
      <form className="grid grid-cols-1 gap-4" onSubmit={save} aria-label="Replace your card">
        <FormAlert id="card-setup-error" errors={problem ? [problem] : undefined} />
        <StripeCardField mountPoint={mountPoint} fields={fields} />
        <p className="text-sm text-muted-foreground">
          Nothing is charged now: your bank may ask you to confirm the card. Your next fees are charged to it.
        </p>
        <div>
          <Button type="submit" size="lg" disabled={busy}>
            <CreditCard aria-hidden="true" />
            Save this card
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
