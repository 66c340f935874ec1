import Stripe from "stripe";
import type { FakeStripe } from "./fake-stripe";

/**
 * What Stripe.js does in the card holder's browser, with the publishable key: the card goes to
 * Stripe, never to our server, and confirms the payment our server opened.
 */
export function stripeBrowser(fake: FakeStripe) {
  const { port } = new URL(fake.origin);
  const browser = new Stripe(fake.publishableKey, { host: "127.0.0.1", port: Number(port), protocol: "http" });
  const intentOf = (clientSecret: string) => clientSecret.split("_secret_")[0]!;
  return {
    /**
     * Resolves with the intent's status, or Stripe's card error as Stripe.js reports it. With no
     * number, the card it was last tried with is confirmed again; `keep` keeps the card for later.
     */
    async confirm(clientSecret: string, number?: string, { keep = false } = {}) {
      const method =
        number &&
        (await browser.paymentMethods.create({
          type: "card",
          card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" },
        }));
      try {
        const intent = await browser.paymentIntents.confirm(intentOf(clientSecret), {
          ...(method && { payment_method: method.id }),
          ...(keep && { setup_future_usage: "off_session" }),
          client_secret: clientSecret,
        } as Stripe.PaymentIntentConfirmParams);
        return { status: intent.status };
      } catch (error) {
        return { error: (error as Stripe.errors.StripeError).message };
      }
    },
    /** Checks a new card with its bank for a setup intent: its status, or Stripe's card error. */
    async confirmSetup(clientSecret: string, number: string) {
      const method = await browser.paymentMethods.create({
        type: "card",
        card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" },
      });
      try {
        const setup = await browser.setupIntents.confirm(intentOf(clientSecret), {
          payment_method: method.id,
          client_secret: clientSecret,
        } as Stripe.SetupIntentConfirmParams);
        return { status: setup.status };
      } catch (error) {
        return { error: (error as Stripe.errors.StripeError).message };
      }
    },
    /** The bank's 3-D Secure page, answered, for a payment intent or a setup intent. */
    async authenticate(clientSecret: string, result: "succeed" | "fail") {
      const id = intentOf(clientSecret);
      const kind = id.startsWith("seti_") ? "setup_intents" : "payment_intents";
      const response = await fetch(`${fake.origin}/v1/${kind}/${id}/authenticate`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${fake.publishableKey}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ result, client_secret: clientSecret }).toString(),
      });
      return response.status;
    },
  };
}
