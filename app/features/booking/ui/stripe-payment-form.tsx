import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Form, useSubmit } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { Label } from "~/components/ui/label";
import { useIsPending } from "~/components/ui/use-is-pending";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import type { OrderTerms } from "../order-terms";
import { CONSENT_REQUIRED } from "../start-consent";
import { FinishAndAssurances } from "./payment-form";

/** The part of Stripe.js this page uses: one Card Element and `confirmCardPayment` (ADR 018). */
interface CardElement {
  mount(target: HTMLElement): void;
  on(event: "change", handler: (change?: { error?: { message?: string } }) => void): void;
  destroy(): void;
}

interface StripeJs {
  elements(): { create(type: "card", options?: object): CardElement };
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: CardElement } },
  ): Promise<{ error?: { message?: string }; paymentIntent?: { status: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

let stripeScript: Promise<NonNullable<Window["Stripe"]>> | undefined;

/** Loads Stripe.js once per page, as a plain script from its own address (never bundled). */
function loadStripeJs(src: string) {
  stripeScript ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    const fail = (reason: string) => {
      // The next attempt (a reload of the form) loads it afresh.
      stripeScript = undefined;
      script.remove();
      reject(new Error(reason));
    };
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : fail("Stripe.js defined no Stripe"));
    script.onerror = () => fail("Stripe.js could not be loaded");
    document.head.append(script);
  });
  return stripeScript;
}

const CARD_FIELD_NOT_READY = "The secure card field is not ready yet. Please wait a moment, or reload the page.";

type CardFields = { state: "loading" } | { state: "ready"; stripe: StripeJs; card: CardElement } | { state: "failed" };

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
  const mountPoint = useRef<HTMLDivElement>(null);
  const [fields, setFields] = useState<CardFields>({ state: "loading" });
  const [confirming, setConfirming] = useState(false);
  const [browserError, setBrowserError] = useState<string>();

  useEffect(() => {
    let card: CardElement | undefined;
    let gone = false;
    loadStripeJs(hostedFields.scriptUrl).then(
      (Stripe) => {
        if (gone || !mountPoint.current) return;
        try {
          const stripe = Stripe(hostedFields.publishableKey);
          card = stripe.elements().create("card", { hidePostalCode: true, style: { base: { fontSize: "16px" } } });
          card.mount(mountPoint.current);
          card.on("change", (change) => setBrowserError(change?.error?.message));
          setFields({ state: "ready", stripe, card });
        } catch {
          setFields({ state: "failed" });
        }
      },
      () => setFields({ state: "failed" }),
    );
    return () => {
      gone = true;
      card?.destroy();
    };
  }, [hostedFields.publishableKey, hostedFields.scriptUrl]);

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
      <div className="grid gap-2">
        <Label id="card-details-label">Card Details</Label>
        <div
          ref={mountPoint}
          role="group"
          aria-labelledby="card-details-label"
          className="min-h-11 rounded-md border border-input bg-background px-3 py-3"
        />
        {fields.state === "loading" ? (
          <p className="text-sm text-muted-foreground">Loading the secure card field...</p>
        ) : null}
        {fields.state === "failed" ? (
          <p role="alert" className="text-sm text-destructive">
            The secure card field could not be loaded. Please check your connection and reload the page.
          </p>
        ) : null}
        <noscript>
          <p className="text-sm text-destructive">
            Paying by card needs JavaScript: the card field is our payment provider&apos;s and runs in your browser.
          </p>
        </noscript>
      </div>
      <FinishAndAssurances pending={confirming || submitting} terms={terms} consent={formFields.consent} />
    </Form>
  );
}
