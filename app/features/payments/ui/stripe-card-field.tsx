import { useEffect, useRef, useState } from "react";
import { Label } from "~/components/ui/label";
import { PROVIDER_UNREACHABLE } from "../payment-answers";
import { CARD_FIELD_NOT_READY, loadStripeJs, type CardElement, type CardFields, type StripeJs } from "./stripe-js";

/**
 * Stripe's own Card Element, mounted once Stripe.js has loaded: the number, expiry and CVC are
 * typed into it and never reach our server. `problem` is what the field says is wrong as one types.
 */
export function useStripeCardElement(hostedFields: { publishableKey: string; scriptUrl: string }) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const [fields, setFields] = useState<CardFields>({ state: "loading" });
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let card: { destroy(): void } | undefined;
    let gone = false;
    loadStripeJs(hostedFields.scriptUrl).then(
      (Stripe) => {
        if (gone || !mountPoint.current) return;
        try {
          const stripe = Stripe(hostedFields.publishableKey);
          const element = stripe
            .elements()
            .create("card", { hidePostalCode: true, style: { base: { fontSize: "16px" } } });
          card = element;
          element.mount(mountPoint.current);
          element.on("change", (change) => setProblem(change?.error?.message));
          setFields({ state: "ready", stripe, card: element });
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

  const [busy, setBusy] = useState(false);
  /**
   * Runs one Stripe.js confirmation at a time (`work`, with the loaded script and the card field),
   * then `then` (our server's look at the outcome) once Stripe said yes; otherwise shows why.
   */
  async function confirmWith(
    work: (stripe: StripeJs, card: CardElement) => Promise<{ error?: { message?: string } }>,
    then: () => Promise<unknown>,
  ) {
    if (busy) return;
    if (fields.state !== "ready") return setProblem(CARD_FIELD_NOT_READY);
    setBusy(true);
    setProblem(undefined);
    try {
      const result = await work(fields.stripe, fields.card);
      if (result.error) {
        setProblem(result.error.message ?? "Your card was declined.");
        return setBusy(false);
      }
    } catch {
      setProblem(PROVIDER_UNREACHABLE);
      return setBusy(false);
    }
    await then();
  }

  return { mountPoint, fields, problem, setProblem, busy, confirmWith };
}

/** The labelled box the Card Element mounts in, and what to say while it loads, fails or cannot run. */
export function StripeCardField({
  mountPoint,
  fields,
}: Pick<ReturnType<typeof useStripeCardElement>, "mountPoint" | "fields">) {
  return (
    <div className="grid min-w-0 grid-cols-1 gap-2">
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
  );
}
