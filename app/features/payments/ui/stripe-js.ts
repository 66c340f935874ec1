/** The part of Stripe.js our pages use: one Card Element, `confirmCardPayment` and `confirmCardSetup` (ADR 018). */
export interface CardElement {
  mount(target: HTMLElement): void;
  on(event: "change", handler: (change?: { error?: { message?: string } }) => void): void;
  destroy(): void;
}

export interface StripeJs {
  elements(): { create(type: "card", options?: object): CardElement };
  /**
   * Confirms a payment our server opened: with the card typed in the Card Element, or a card the
   * customer kept (its id), or, with no data, the card it was last tried with (to pass 3-D Secure).
   */
  confirmCardPayment(
    clientSecret: string,
    data?: { payment_method: { card: CardElement } | string; setup_future_usage?: "off_session" },
  ): Promise<{ error?: { message?: string }; paymentIntent?: { status: string } }>;
  /** Checks a card with its bank and keeps it, with no payment (a SetupIntent our server opened). */
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: CardElement } },
  ): Promise<{ error?: { message?: string }; setupIntent?: { status: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

let stripeScript: Promise<NonNullable<Window["Stripe"]>> | undefined;

/** Loads Stripe.js once per page, as a plain script from its own address (never bundled). */
export function loadStripeJs(src: string) {
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

export const CARD_FIELD_NOT_READY = "The secure card field is not ready yet. Please wait a moment, or reload the page.";

export type CardFields =
  { state: "loading" } | { state: "ready"; stripe: StripeJs; card: CardElement } | { state: "failed" };
