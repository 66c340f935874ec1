import { getFormProps, useForm } from "@conform-to/react";
import { Form, useSubmit } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { OrderTerms } from "~/features/booking/order-terms";
import { FinishAndAssurances } from "~/features/booking/ui/payment-form";
import { StripeCardField, useStripeCardElement } from "~/features/payments/ui/stripe-card-field";
import type { PlanId } from "~/features/site-config/types";
import type { CurrencyCode } from "~/lib/currency";
import { TRIAL_CONSENT_REQUIRED } from "../checkout-schema";

/**
 * The card step with Stripe (ADR 018): Stripe's own field takes the card and Stripe.js confirms the
 * card check the first step opened (3-D Secure when the bank asks), nothing charged; our server is
 * then told only which check to read, with the details and the consent, and starts the trial if
 * Stripe says the card is kept.
 */
export function StripeCheckoutForm({
  chosen,
  details,
  checkoutKey,
  hosted,
  terms,
}: {
  chosen: { plan: PlanId; currency: CurrencyCode };
  details: { fullName: string; email: string } | null;
  checkoutKey: string;
  hosted: { setupRef: string; clientSecret: string; hostedFields: { publishableKey: string; scriptUrl: string } };
  terms: OrderTerms;
}) {
  const [form, fields] = useForm<{ consent: string }>({ id: "membership-checkout" });
  const submit = useSubmit();
  const submitting = useIsPending();
  const card = useStripeCardElement(hosted.hostedFields);

  function start(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    if (new FormData(formElement).get("consent") !== "on") return card.setProblem(TRIAL_CONSENT_REQUIRED);
    void card.confirmWith(
      (stripe, element) => stripe.confirmCardSetup(hosted.clientSecret, { payment_method: { card: element } }),
      () => submit(formElement, { method: "post" }),
    );
  }

  return (
    <Form method="post" {...getFormProps(form)} onSubmit={start} className="grid grid-cols-1 gap-5">
      <FormAlert id={form.errorId} errors={card.problem ? [card.problem] : form.errors} />
      <input type="hidden" name="step" value="card" />
      <input type="hidden" name="checkoutKey" value={checkoutKey} />
      <input type="hidden" name="setupRef" value={hosted.setupRef} />
      <input type="hidden" name="plan" value={chosen.plan} />
      <input type="hidden" name="currency" value={chosen.currency} />
      <input type="hidden" name="fullName" value={details?.fullName ?? ""} />
      <input type="hidden" name="email" value={details?.email ?? ""} />
      {details ? (
        <p className="text-sm">
          {details.fullName}, {details.email}
        </p>
      ) : null}
      <StripeCardField mountPoint={card.mountPoint} fields={card.fields} />
      <FinishAndAssurances pending={card.busy || submitting} terms={terms} consent={fields.consent} />
    </Form>
  );
}
