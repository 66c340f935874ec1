import type Stripe from "stripe";
import type { Database } from "~/db/client.server";
import { providerEvents } from "~/db/schema";
import { settleOrderPayment } from "~/features/booking/hosted-checkout.server";
import { followInvoice, followSubscription } from "~/features/memberships/provider-billing.server";
import type { Logger } from "pino";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { followRefunds, refundPaymentWithoutOrder } from "./refunds-made-at-stripe.server";

export interface StripeWebhookContext {
  db: Database;
  client: Stripe;
  webhookSecret: string;
  gateway: HostedCardGateway;
  origin: string;
  logger: Logger;
}

export type WebhookAnswer = { status: 200; body: { received: true } } | { status: 400; body: { error: string } };

const RECEIVED = { status: 200, body: { received: true } } as const;

/**
 * The event's row: `claim` writes it in the transaction of the effect (false when it was already
 * there: the event was acted on before); `record` writes it for an event no handler claimed.
 */
function eventRow(db: Database, event: Stripe.Event) {
  let claimed = false;
  const claim = async (tx: Database) => {
    claimed = true;
    const written = await tx
      .insert(providerEvents)
      .values({ id: event.id, provider: "stripe", type: event.type })
      .onConflictDoNothing()
      .returning({ id: providerEvents.id });
    return written.length > 0;
  };
  // A claim whose transaction failed threw on its way here, so a claim made means the row is there.
  const record = async () => {
    if (!claimed) await claim(db);
  };
  return { claim, record };
}

/**
 * Stripe's webhook (ADR 018). The signature is checked on the raw body; each event is acted on at
 * most once, its row written in the transaction of its effect. Events carry a snapshot that may be
 * stale (they arrive late, twice or out of order), so the handlers read the object from Stripe
 * again and act on what it says now.
 */
export async function receiveStripeEvent(
  context: StripeWebhookContext,
  { payload, signature }: { payload: string; signature: string | null },
): Promise<WebhookAnswer> {
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    event = context.client.webhooks.constructEvent(payload, signature, context.webhookSecret);
  } catch (error) {
    context.logger.warn(
      { reason: (error as Error).message },
      "stripe webhook: refused an unsigned or badly signed event",
    );
    return { status: 400, body: { error: "Invalid signature" } };
  }
  const { claim, record } = eventRow(context.db, event);
  const now = new Date();
  const log = context.logger.child({ eventId: event.id, eventType: event.type });
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.processing": {
      const settled = await settleOrderPayment(context.db, context.gateway, {
        by: { ref: event.data.object.id },
        origin: context.origin,
        claim,
      });
      log.info({ outcome: settled.kind }, "stripe webhook: payment settled");
      if (settled.kind === "not-found" && event.type === "payment_intent.succeeded") {
        const refunded = await refundPaymentWithoutOrder(context, event.data.object.id);
        if (refunded) log.warn("stripe webhook: a payment whose order no longer exists was refunded");
      }
      break;
    }
    case "invoice.paid":
    case "invoice.payment_succeeded":
    case "invoice.payment_failed":
    case "invoice.payment_action_required":
    case "invoice.voided":
    case "invoice.marked_uncollectible": {
      const invoiceRef = event.data.object.id;
      if (!invoiceRef) break;
      const followed = await followInvoice(context.db, context.gateway, invoiceRef, {
        claim,
        now,
        origin: context.origin,
      });
      log.info({ outcome: followed }, "stripe webhook: invoice followed");
      break;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const followed = await followSubscription(context.db, context.gateway, event.data.object.id, {
        claim,
        now,
        origin: context.origin,
      });
      log.info({ outcome: followed }, "stripe webhook: subscription followed");
      break;
    }
    case "charge.refunded": {
      const followed = await followRefunds(context, event.data.object.id, claim);
      log.info({ outcome: followed }, "stripe webhook: refunds followed");
      break;
    }
    case "customer.subscription.trial_will_end":
      // Stripe says it 3 days ahead, at once for our 3-day trial: the billing job's reminder goes the day before.
      log.info("stripe webhook: trial ends soon (the billing job sends the reminder)");
      break;
    default:
      log.info("stripe webhook: event acknowledged, nothing to do");
  }
  // Every acknowledged event has its row, whether or not a transaction above wrote it.
  await record();
  return RECEIVED;
}
