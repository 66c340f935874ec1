import type { Route } from "./+types/stripe.webhook";
import { database } from "~/db/client.server";
import { livePayments } from "~/features/payments/live-gateway.server";
import { receiveStripeEvent } from "~/features/provider-events/stripe-webhook.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { logger } from "~/logger.server";

/** Stripe's events (ADR 018). In sandbox mode there is no such endpoint. */
export async function action({ request }: Route.ActionArgs) {
  const { gateway, stripe } = livePayments();
  if (!stripe || gateway.kind !== "hosted-card" || request.method !== "POST") {
    return new Response("Not Found", { status: 404 });
  }
  const answer = await receiveStripeEvent(
    {
      db: database().db,
      client: stripe.client,
      webhookSecret: stripe.webhookSecret,
      gateway,
      origin: siteOrigin(),
      logger,
    },
    { payload: await request.text(), signature: request.headers.get("stripe-signature") },
  );
  return Response.json(answer.body, { status: answer.status });
}

export function loader() {
  return new Response("Not Found", { status: 404 });
}
