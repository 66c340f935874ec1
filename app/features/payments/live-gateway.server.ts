import type Stripe from "stripe";
import { env, type Env } from "~/env.server";
import type { PaymentGateway } from "./gateway";
import { sandboxGateway } from "./sandbox-gateway.server";
import { createStripeClient } from "./stripe/stripe-client.server";
import { createStripeGateway } from "./stripe/stripe-gateway.server";

/** The gateway this process takes payments with, and with Stripe what its webhook needs. */
export interface LivePayments {
  gateway: PaymentGateway;
  stripe?: { client: Stripe; webhookSecret: string };
}

/** Stripe when its keys are set (they come together: env.server.ts), else the sandbox. */
export function choosePayments(config: Env): LivePayments {
  const { STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET } = config;
  if (!STRIPE_SECRET_KEY || !STRIPE_PUBLISHABLE_KEY || !STRIPE_WEBHOOK_SECRET) return { gateway: sandboxGateway };
  const client = createStripeClient({ secretKey: STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE });
  return {
    gateway: createStripeGateway(client, { publishableKey: STRIPE_PUBLISHABLE_KEY, scriptUrl: config.STRIPE_JS_URL }),
    stripe: { client, webhookSecret: STRIPE_WEBHOOK_SECRET },
  };
}

let live: LivePayments | undefined;

export function livePayments(): LivePayments {
  live ??= choosePayments(env());
  return live;
}

export const paymentGateway = () => livePayments().gateway;

const stripeMode = (secretKey: string) => (secretKey.includes("_live_") ? "live" : "test");

/** How the boot log names the gateway: "stripe (test mode)", "sandbox". */
export function gatewayLabel(config: Env): string {
  return config.STRIPE_SECRET_KEY ? `stripe (${stripeMode(config.STRIPE_SECRET_KEY)} mode)` : "sandbox";
}

/** How the back office's dashboard names it. */
export function gatewayLabelFr(config: Env): string {
  if (!config.STRIPE_SECRET_KEY) return "bac à sable, aucun argent ne circule";
  return stripeMode(config.STRIPE_SECRET_KEY) === "live" ? "Stripe, mode réel" : "Stripe, mode test";
}
