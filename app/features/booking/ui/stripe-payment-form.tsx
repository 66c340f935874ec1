import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { useIsPending } from "~/components/ui/use-is-pending";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import { StripeCardField, useStripeCardElement } from "~/features/payments/ui/stripe-card-field";
import { CARD_FIELD_NOT_READY } from "~/features/payments/ui/stripe-js";
import type { OrderTerms } from "../order-terms";
import { CONSENT_REQUIRED } from "../start-consent";
import { FinishAndAssurances } from "./payment-form";

/**
 * The card form in Stripe mode: Stripe's own card field takes the number, expiry and CVC, so they
 * never reach our server. Pressing FINISH opens the order's payment on the server, confirms it in
 * the browser (3-D Secure runs here when the bank asks), then posts to our action, which pays the
 * order only if Stripe says the money was taken.
 */
export function StripePaymentForm({
  orderId,
  hostedFields,
  lastResult,
  terms,
}: {
  orderId: string;
  hostedFields: { publishableKey: string; scriptUrl: string };
  lastResult: SubmissionResult<string[]> | undefined;
  terms: OrderTerms;
}) {
  const [form, formFields] = useForm<{ consent: string }>({ id: "payment", lastResult });
  const submit = useSubmit();
  const submitting = useIsPending();
  const { mountPoint, fields, problem: browserError, setProblem: setBrowserError } = useStripeCardElement(hostedFields);
  const [confirming, setConfirming] = useState(false);

  async function pay(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirming) return;
    const formElement = event.currentTarget;
    const consent = new FormData(formElement).get("consent");
    if (consent !== "on") return setBrowserError(CONSENT_REQUIRED);
    if (fields.state !== "ready") return setBrowserError(CARD_FIELD_NOT_READY);
    setConfirming(true);
    setBrowserError(undefined);
    const fail = (message: string) => {
      setBrowserError(message);
      setConfirming(false);
    };
    try {
      // The server records the consent before it opens the payment, and refuses to open it without.
      const opened = await fetch(`/fast-track-payment/${orderId}/open`, {
        method: "POST",
        body: new URLSearchParams({ consent }),
      });
      const answer = (await opened.json()) as { clientSecret?: string; error?: string };
      if (answer.error) return fail(answer.error);
      if (answer.clientSecret) {
        const result = await fields.stripe.confirmCardPayment(answer.clientSecret, {
          payment_method: { card: fields.card },
        });
        if (result.error) return fail(result.error.message ?? "Your card was declined.");
      }
    } catch {
      return fail(PROVIDER_UNREACHABLE);
    }
    // The navigation ends once the server answered: with the booking, or with why not.
    await submit(formElement, { method: "post" });
    setConfirming(false);
  }

  const errors = browserError ? [browserError] : form.errors;
  return (
    <Form method="post" {...getFormProps(form)} onSubmit={pay} className="grid gap-5">
      <FormAlert id={form.errorId} errors={errors} />
      <StripeCardField mountPoint={mountPoint} fields={fields} />
      <FinishAndAssurances pending={confirming || submitting} terms={terms} consent={formFields.consent} />
    </Form>
  );
}
