import Stripe from "stripe";

/** The API version this code was written against; Stripe answers in its shapes whatever the account's default. */
export const STRIPE_API_VERSION = "2026-10-28.endive" as const;

/** A slow Stripe makes a payment page wait at most this long per call (one retry included). */
const STRIPE_TIMEOUT_MS = 10_000;

export interface StripeSettings {
  secretKey: string;
  /** Another origin for the API, such as a local Stripe-compatible server. */
  apiBase?: string;
  timeoutMs?: number;
}

export function createStripeClient({ secretKey, apiBase, timeoutMs = STRIPE_TIMEOUT_MS }: StripeSettings): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    timeout: timeoutMs,
    // Every call that moves money carries an idempotency key, so a retried one cannot do it twice.
    maxNetworkRetries: 1,
    telemetry: false,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === "https:" ? 443 : 80),
      protocol: base.protocol === "https:" ? "https" : "http",
    }),
  });
}
