import type Stripe from "stripe";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { providerEvents } from "~/db/schema";
import { settleOrderPayment } from "~/features/booking/hosted-checkout.server";
import { followInvoice, followSubscription } from "~/features/memberships/provider-billing.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import type { Actor } from "~/lib/actor";
import { failedEvent, forgetFailedEvent, isProcessed, noteRetry, rememberFailedEvent } from "./failed-events.server";
import { followRefunds, refundPaymentWithoutOrder } from "./refunds-made-at-stripe.server";

/** What acting on an event needs. */
export interface StripeEventContext {
  db: Database;
  client: Stripe;
  gateway: HostedCardGateway;
  origin: string;
  logger: Logger;
}

export interface StripeWebhookContext extends StripeEventContext {
  webhookSecret: string;
}

/**
 * An event as the handlers use it: they read its object afresh from Stripe, so its id is all they
 * take from the event's body. It is also all a failed event keeps for its retry.
 */
export interface StripeEventRef {
  id: string;
  type: string;
  /** The id of the event's object (a payment intent, an invoice…), when it has one. */
  objectRef: string | null;
}

/** An event about a payment, an invoice or a subscription that does not say which: nothing to act on, kept for a retry. */
const NO_OBJECT = "The event names no object (its data.object.id is missing)";

/** How far a signature's time may be from ours, either way: the Stripe SDK's default of 5 minutes. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookAnswer = { status: 200; body: { received: true } } | { status: 400 | 500; body: { error: string } };

const RECEIVED = { status: 200, body: { received: true } } as const;

/** Stripe's dashboard shows this to the operator; Stripe sends the event again later. */
export const EVENT_KEPT_FOR_RETRY =
  "The event could not be handled now. It is kept: it is handled when Stripe sends it again or an admin retries it.";

/**
 * The event's row: `claim` writes it in the transaction of the effect (false when it was already
 * there: the event was acted on before); `record` writes it for an event no handler claimed.
 */
function eventRow(db: Database, event: StripeEventRef) {
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
 * again and act on what it says now. An event whose handling fails is answered 500, so that Stripe
 * sends it again later, and kept for the back office meanwhile (ADR 026).
 */
export async function receiveStripeEvent(
  context: StripeWebhookContext,
  { payload, signature, now = new Date() }: { payload: string; signature: string | null; now?: Date },
): Promise<WebhookAnswer> {
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    event = context.client.webhooks.constructEvent(
      payload,
      signature,
      context.webhookSecret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      now.getTime(),
    );
    // The SDK refuses a signature older than its tolerance, not one from the future: a clock of ours
    // that runs late, or a signed body kept to be replayed later, must not get around the window.
    const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
    if (signedAt - Math.floor(now.getTime() / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
      throw new Error("Timestamp in the future, outside the tolerance zone");
    }
  } catch (error) {
    context.logger.warn(
      { reason: (error as Error).message },
      "stripe webhook: refused an unsigned or badly signed event",
    );
    return { status: 400, body: { error: "Invalid signature" } };
  }
  const processed = await processStripeEvent(context, {
    id: event.id,
    type: event.type,
    // A signed event without the object it is about is still Stripe's: kept as failed, not a 500 lost.
    objectRef: (event.data?.object as { id?: string } | undefined)?.id ?? null,
  });
  return processed.ok ? RECEIVED : { status: 500, body: { error: EVENT_KEPT_FOR_RETRY } };
}

/**
 * Acts on an event once (ADR 018) and keeps the outcome: processed, its row written (and any earlier
 * failure forgotten), or failed, kept with its error for a retry (ADR 026).
 */
export async function processStripeEvent(
  context: StripeEventContext,
  event: StripeEventRef,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const log = context.logger.child({ eventId: event.id, eventType: event.type });
  try {
    await actOn(context, event, log);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.error({ err: error }, "stripe webhook: the event could not be handled, kept for a retry");
    try {
      await rememberFailedEvent(context.db, event, reason);
    } catch (rememberError) {
      log.error({ err: rememberError }, "stripe webhook: the failed event could not be kept");
    }
    return { ok: false, error: reason };
  }
  await forgetFailedEvent(context.db, event.id);
  return { ok: true };
}

async function actOn(context: StripeEventContext, event: StripeEventRef, log: Logger) {
  const { claim, record } = eventRow(context.db, event);
  const now = new Date();
  const { objectRef } = event;
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.processing": {
      if (!objectRef) throw new Error(NO_OBJECT);
      const settled = await settleOrderPayment(context.db, context.gateway, {
        by: { ref: objectRef },
        origin: context.origin,
        claim,
      });
      // "already-paid": this event paid nothing (it came again, or the payment page settled it first).
      const outcome = settled.kind === "paid" && settled.alreadyPaid ? "already-paid" : settled.kind;
      log.info({ outcome }, "stripe webhook: payment settled");
      if (settled.kind === "not-found" && event.type === "payment_intent.succeeded") {
        const refunded = await refundPaymentWithoutOrder(context, objectRef);
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
      if (!objectRef) throw new Error(NO_OBJECT);
      const followed = await followInvoice(context.db, context.gateway, objectRef, {
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
      if (!objectRef) throw new Error(NO_OBJECT);
      const followed = await followSubscription(context.db, context.gateway, objectRef, {
        claim,
        now,
        origin: context.origin,
      });
      log.info({ outcome: followed }, "stripe webhook: subscription followed");
      break;
    }
    case "charge.refunded": {
      if (!objectRef) throw new Error(NO_OBJECT);
      const followed = await followRefunds(context, objectRef, claim);
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
}

export type EventRetry =
  | { kind: "processed"; type: string }
  | { kind: "failed"; type: string; error: string }
  /** Nothing was left to retry: Stripe's own delivery, another admin or an earlier click was first. */
  | { kind: "already-processed" }
  | { kind: "not-found" };

/**
 * An admin's retry of a failed event: the handler runs again as for a delivery, reading the object
 * afresh, so the event still acts once however often it is retried or delivered.
 */
export async function retryFailedEvent(
  context: StripeEventContext,
  { id, actor }: { id: string; actor: Actor },
): Promise<EventRetry> {
  const failed = await failedEvent(context.db, id);
  if (!failed) return (await isProcessed(context.db, id)) ? { kind: "already-processed" } : { kind: "not-found" };
  if (await isProcessed(context.db, id)) {
    await forgetFailedEvent(context.db, id);
    return { kind: "already-processed" };
  }
  await noteRetry(context.db, id, actor);
  context.logger.info(
    { eventId: id, eventType: failed.type, by: actor.label },
    "stripe webhook: an admin retries an event",
  );
  const processed = await processStripeEvent(context, failed);
  return processed.ok
    ? { kind: "processed", type: failed.type }
    : { kind: "failed", type: failed.type, error: processed.error };
}
