import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { hostedPayments } from "~/db/schema";
import { mayStartTrial, TRIAL_PLAN, type ProviderBilling } from "~/features/memberships/enrolment.server";
import type { Claim } from "~/features/memberships/provider-billing.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-status";
import type { HostedCardGateway, HostedPayment } from "~/features/payments/gateway";
import { PAYMENT_NOT_MADE } from "~/features/payments/payment-answers";
import { logger } from "~/logger.server";
import {
  completePaidOrder,
  lockOrderForPayment,
  recordPayment,
  voucherQrFor,
  type PaymentResult,
} from "./checkout.server";
import { isPaidStatus } from "./order-status";
import type { OrderDetails } from "./order-details";
import { findOrder } from "./orders.server";

export type OpenOrderPayment = { kind: "open"; clientSecret: string } | SettledPayment;

export type SettledPayment = PaymentResult | { kind: "pending" };

/**
 * The payment the browser confirms with the provider's card fields: the order's own, opened once
 * (one idempotency key per order) for its amount and currency. Opening it again hands out the same
 * one, unless the bank already took the money, which then settles the order instead.
 */
export async function openOrderPayment(
  db: Database,
  gateway: HostedCardGateway,
  { orderId, origin }: { orderId: string; origin: string },
): Promise<OpenOrderPayment> {
  const order = await findOrder(db, orderId);
  if (!order) return { kind: "not-found" };
  if (isPaidStatus(order.status)) return { kind: "paid", alreadyPaid: true };
  if (order.status !== "Not Paid") return { kind: "not-payable", status: order.status };

  const [known] = await db.select().from(hostedPayments).where(eq(hostedPayments.orderId, orderId));
  if (known) {
    const payment = await gateway.readPayment(known.ref);
    if (payment.status === "needs-card" || payment.status === "needs-action") {
      return { kind: "open", clientSecret: payment.clientSecret };
    }
    // Cancelled at the provider (its dashboard): a new payment replaces it, under a key of its own.
    if (payment.status !== "canceled") return settle(db, gateway, order, payment, origin);
  }

  // The first paid fast track of an address keeps its card, for the membership it starts.
  const keepCard = order.email && (await mayStartTrial(db, order.email));
  const opened = await gateway.openPayment({
    orderId,
    amount: order.amount,
    currency: order.currency,
    idempotencyKey: known ? `order-payment:${orderId}:after:${known.ref}` : `order-payment:${orderId}`,
    ...(keepCard &&
      order.email && {
        saveCardFor: { email: order.email, plan: TRIAL_PLAN, idempotencyKey: `order-customer:${orderId}` },
      }),
  });
  await db
    .insert(hostedPayments)
    .values({ orderId, provider: gateway.name, ref: opened.ref, customerRef: opened.customerRef })
    .onConflictDoUpdate({
      target: hostedPayments.orderId,
      set: { ref: opened.ref, customerRef: opened.customerRef },
      // Two visitors racing for a first payment got the same one: the row stays as it is.
      setWhere: sql`${hostedPayments.ref} <> ${opened.ref}`,
    });
  return { kind: "open", clientSecret: opened.clientSecret };
}

/**
 * Settles an order by what the provider says of its payment (never by what the browser says): the
 * return from the payment page and the provider's webhook both come here, in any order and as often
 * as they like. `by` names the payment by its order or by the provider's reference.
 */
export async function settleOrderPayment(
  db: Database,
  gateway: HostedCardGateway,
  {
    by,
    origin,
    claim,
  }: {
    by: { orderId: string } | { ref: string };
    origin: string;
    /** Run in the transaction that pays the order (a webhook's event row): false means done before. */
    claim?: Claim;
  },
): Promise<SettledPayment> {
  const [known] = await db
    .select()
    .from(hostedPayments)
    .where("orderId" in by ? eq(hostedPayments.orderId, by.orderId) : eq(hostedPayments.ref, by.ref));
  if (!known) return { kind: "not-found" };
  const order = await findOrder(db, known.orderId);
  if (!order) return { kind: "not-found" };
  return settle(db, gateway, order, await gateway.readPayment(known.ref), origin, claim);
}

async function settle(
  db: Database,
  gateway: HostedCardGateway,
  order: OrderDetails,
  payment: HostedPayment,
  origin: string,
  claim?: Claim,
): Promise<SettledPayment> {
  if (payment.orderId !== order.id) throw new Error(`Payment ${payment.ref} is not order ${order.id}'s`);
  if (isPaidStatus(order.status)) return { kind: "paid", alreadyPaid: true };
  switch (payment.status) {
    case "needs-card":
    case "canceled":
      return { kind: "declined", message: payment.failure ?? PAYMENT_NOT_MADE };
    case "needs-action":
    case "processing":
      return { kind: "pending" };
    case "succeeded":
      break;
  }
  if (payment.amount !== order.amount || payment.currency !== order.currency) {
    throw new Error(`Payment ${payment.ref} took ${payment.amount} ${payment.currency}, not the order's amount`);
  }
  const card = payment.card ?? { brand: "Card", last4: "????", ref: "" };
  const qrPng = await voucherQrFor(order.id, origin);
  const billing = await subscribeIfFirst(db, gateway, order, payment);

  const outcome = await db.transaction(async (tx) => {
    const locked = await lockOrderForPayment(tx, order.id);
    if ("kind" in locked) return { result: locked, membershipId: null };
    if (claim && !(await claim(tx)))
      return { result: { kind: "paid", alreadyPaid: true } as const, membershipId: null };
    const record = {
      provider: gateway.name,
      providerRef: payment.ref,
      brand: card.brand,
      last4: card.last4,
      outcome: "succeeded",
    };
    await recordPayment(tx, order, record);
    const { membershipId } = await completePaidOrder(tx, {
      order,
      customerId: locked.customerId,
      payment: record,
      keptCard: billing && { ref: card.ref, brand: card.brand, last4: card.last4 },
      billing,
      qrPng,
      origin,
    });
    return { result: { kind: "paid", alreadyPaid: false } as const, membershipId };
  });
  // Another order of the same address started its membership first: this subscription must not bill.
  if (billing && !outcome.membershipId && outcome.result.kind === "paid" && !outcome.result.alreadyPaid) {
    logger.warn({ orderId: order.id }, "payment: a second membership's subscription is cancelled");
    await gateway.cancelSubscription(billing.subscriptionRef);
  }
  return outcome.result;
}

/**
 * The membership a first paid fast track starts, billed by the provider on the card the payment
 * kept. Created before the order's transaction (it is a call to the provider) under one key per
 * order, so that the return and the webhook find the same subscription.
 */
async function subscribeIfFirst(
  db: Database,
  gateway: HostedCardGateway,
  order: OrderDetails,
  payment: HostedPayment,
): Promise<ProviderBilling | undefined> {
  if (!payment.customerRef || !payment.card?.ref || !(await mayStartTrial(db, order.email))) return undefined;
  const subscription = await gateway.subscribe({
    customerRef: payment.customerRef,
    paymentMethodRef: payment.card.ref,
    plan: TRIAL_PLAN,
    currency: order.currency,
    trialDays: MEMBERSHIP_TERMS.trialDays,
    idempotencyKey: `order-subscription:${order.id}`,
    orderId: order.id,
  });
  return { subscriptionRef: subscription.ref, customerRef: payment.customerRef, trialEndsAt: subscription.trialEndsAt };
}
