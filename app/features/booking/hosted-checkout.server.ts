import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, hostedPayments, memberships, orders, payments } from "~/db/schema";
import { trialAvailable, trialStart } from "~/features/memberships/enrolment.server";
import { executePrepared, onEachDatabase } from "~/db/prepared-statement.server";
import { TRIAL_PLAN, trialEndsAt } from "~/features/memberships/trial-offer";
import type { Claim } from "~/features/memberships/provider-billing.server";
import type { HostedCardGateway, HostedPayment } from "~/features/payments/gateway";
import { PAYMENT_NOT_MADE } from "~/features/payments/payment-answers";
import { logger } from "~/logger.server";
import {
  FREE_BOOKING,
  isFreeBooking,
  countedPayment,
  lockOrderForPayment,
  recordConsent,
  settlePayment,
  voucherCheckUrlFor,
  type SettledPayment,
} from "./checkout.server";
import { isPaidStatus } from "./order-status";
import type { OrderDetails } from "./order-details";
import { orderDetailsColumns } from "./orders.server";
import { isUuid } from "~/lib/uuid";

export type OpenOrderPayment = { kind: "open"; clientSecret: string } | SettledPayment;

/**
 * The payment the browser confirms with the provider's card fields: the order's own, opened once
 * (one idempotency key per order) for its amount and currency. Opening it again hands out the same
 * one, unless the bank already took the money, which then settles the order instead.
 */
export async function openOrderPayment(
  db: Database,
  gateway: HostedCardGateway,
  { orderId, origin, consentedAt }: { orderId: string; origin: string; consentedAt: Date },
): Promise<OpenOrderPayment> {
  const [found] = isUuid(orderId) ? await orderPaying.byOrder(db).execute({ key: orderId }) : [];
  if (!found) return { kind: "not-found" };
  const { ref: knownRef, ...order } = found;
  if (isPaidStatus(order.status)) return { kind: "paid", alreadyPaid: true };
  if (order.status !== "not_paid") return { kind: "not-payable", status: order.status };
  // Nothing to charge: the page confirms it without the provider (confirmFreeBooking).
  if (isFreeBooking(order)) return { kind: "declined", message: FREE_BOOKING };
  // The first paid fast track of an address keeps its card, for the membership it starts.
  const keepCard = await recordConsent(db, orderId, { trialFor: order.email, at: consentedAt });

  if (knownRef) {
    const payment = await gateway.readPayment(knownRef);
    if (payment.status === "needs-card" || payment.status === "needs-action") {
      return { kind: "open", clientSecret: payment.clientSecret };
    }
    // Cancelled at the provider (its dashboard): a new payment replaces it, under a key of its own.
    if (payment.status !== "cancelled") return settle({ db, gateway, order, payment, origin });
  }

  const opened = await gateway.openPayment({
    orderId,
    amount: order.amount,
    currency: order.currency,
    idempotencyKey: knownRef ? `order-payment:${orderId}:after:${knownRef}` : `order-payment:${orderId}`,
    ...(keepCard &&
      order.email && {
        saveCardFor: { email: order.email, plan: TRIAL_PLAN, idempotencyKey: `order-customer:${orderId}` },
      }),
  });
  await executePrepared(
    db,
    db
      .insert(hostedPayments)
      .values({ orderId, provider: gateway.name, ref: opened.ref, customerRef: opened.customerRef })
      .onConflictDoUpdate({
        target: hostedPayments.orderId,
        set: { ref: opened.ref, customerRef: opened.customerRef },
        // Two visitors racing for a first payment got the same one: the row stays as it is.
        setWhere: sql`${hostedPayments.ref} <> ${opened.ref}`,
      })
      .getSQL(),
  );
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
  const [found] =
    "ref" in by
      ? await orderPaying.byRef(db).execute({ key: by.ref })
      : isUuid(by.orderId)
        ? await orderPaying.byOrder(db).execute({ key: by.orderId })
        : [];
  if (!found?.ref) return { kind: "not-found" };
  const { ref, ...order } = found;
  return countedPayment(async () =>
    settle({ db, gateway, order, payment: await gateway.readPayment(ref), origin }, claim),
  );
}

/**
 * An order as `findOrder` reads it, with the reference of its payment at the provider if it has
 * one (`ref`), found by the order or by that reference: read once at every opening and settling.
 */
const orderPaying = {
  byOrder: onEachDatabase((db) =>
    orderWithItsPayment(db)
      .where(eq(orders.id, sql.placeholder("key")))
      .prepare("order_paying_by_order"),
  ),
  byRef: onEachDatabase((db) =>
    orderWithItsPayment(db)
      .where(eq(hostedPayments.ref, sql.placeholder("key")))
      .prepare("order_paying_by_ref"),
  ),
};

function orderWithItsPayment(db: Database) {
  return db
    .select({ ...orderDetailsColumns, ref: hostedPayments.ref })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .leftJoin(hostedPayments, eq(hostedPayments.orderId, orders.id));
}

/** An order's payment being settled: the order, what the provider says of its payment, and where. */
interface Settling {
  db: Database;
  gateway: HostedCardGateway;
  order: OrderDetails;
  payment: HostedPayment;
  origin: string;
}

async function settle(settling: Settling, claim?: Claim): Promise<SettledPayment> {
  const { order, payment } = settling;
  if (payment.orderId !== order.id) throw new Error(`Payment ${payment.ref} is not order ${order.id}'s`);
  let result: SettledPayment = { kind: "paid", alreadyPaid: true };
  if (!isPaidStatus(order.status)) {
    switch (payment.status) {
      case "needs-card":
      case "cancelled":
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
    result = await recordPaidOrder(settling, claim);
  }
  if (result.kind === "paid") await startTrialIfFirst(settling);
  return result;
}

/**
 * The order turns paid, with its payment row and confirmation e-mail, all or nothing: in one
 * statement (`settlePayment`), or, given a claim, in a transaction that runs it first.
 */
async function recordPaidOrder(
  { db, gateway, order, payment, origin }: Settling,
  claim?: Claim,
): Promise<SettledPayment> {
  const card = payment.card ?? { brand: "Card", last4: "????" };
  const settling = {
    order,
    payment: {
      provider: gateway.name,
      providerRef: payment.ref,
      brand: card.brand,
      last4: card.last4,
      outcome: "succeeded",
      createdAt: new Date(),
    },
    outcome: {
      completes: {
        trial: payment.customerRef && payment.card ? { billedByProvider: true as const } : null,
        voucherCheckUrl: voucherCheckUrlFor(order.id, origin),
        origin,
      },
    },
  };
  if (!claim) return settlePayment(db, settling);
  return db.transaction(async (tx): Promise<SettledPayment> => {
    const locked = await lockOrderForPayment(tx, order.id);
    if ("kind" in locked) return locked;
    if (!(await claim(tx))) return { kind: "paid", alreadyPaid: true };
    return settlePayment(tx, settling);
  });
}

/**
 * When the order's latest successful payment was made, if its address may still start a trial
 * (`trialAvailable`): the time a provider's subscription starts the trial from.
 */
const trialPaymentOf = onEachDatabase((db) =>
  db
    .select({ at: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, sql.placeholder("orderId")),
        eq(payments.outcome, "succeeded"),
        trialAvailable(sql`${sql.placeholder("email")}::text`),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .prepare("trial_payment_of_order"),
);

/**
 * The membership a first paid fast track starts, billed by the provider on the card the payment
 * kept. It comes after the order is paid, so that a provider that fails here can never leave
 * money taken without its booking; every later settling of the order (the return, the webhook)
 * tries again, under one key per order, so they all find the same subscription. If it still
 * fails the member is not charged for a membership they do not have, and the log says so.
 */
async function startTrialIfFirst({ db, gateway, order, payment, origin }: Settling) {
  const { customerRef, card } = payment;
  if (payment.status !== "succeeded" || !customerRef || !card || !order.email) return;
  try {
    // The trial runs from the payment, as the confirmation e-mail told the member; none if the address had one.
    const [paid] = await trialPaymentOf(db).execute({ orderId: order.id, email: order.email.toLowerCase() });
    if (!paid) return;
    const subscription = await gateway.subscribe({
      customerRef,
      paymentMethodRef: card.ref,
      plan: TRIAL_PLAN,
      currency: order.currency,
      trialEndsAt: trialEndsAt(paid.at),
      idempotencyKey: `order-subscription:${order.id}`,
      startedBy: { orderId: order.id },
    });
    // With the order locked, in one statement: an order deleted meanwhile starts nothing.
    const locked = sql`${sql.identifier("locked")}`;
    const trial = trialStart(
      {
        customerId: sql`(select customer_id from ${locked})`,
        email: order.email,
        orderId: order.id,
        currency: order.currency,
        paymentMethod: card,
        billing: { subscriptionRef: subscription.ref, customerRef, trialEndsAt: subscription.trialEndsAt },
        paidAt: paid.at,
        origin,
      },
      locked,
    );
    const [started] = await executePrepared(
      db,
      sql`with ${locked} as (select ${orders.customerId} from ${orders} where ${orders.id} = ${order.id}::uuid for update),
        ${trial.parts} select id from ${trial.inserted}`,
    );
    if (started) return;
    const [ours] = await db
      .select({ id: memberships.id })
      .from(memberships)
      .where(eq(memberships.providerSubscriptionRef, subscription.ref));
    // Another order of the same address started its membership first: this subscription must not bill.
    if (!ours) {
      logger.warn({ orderId: order.id }, "payment: a second membership's subscription is cancelled");
      await gateway.cancelSubscription(subscription.ref);
    }
  } catch (error) {
    logger.error({ err: error, orderId: order.id }, "payment: the membership's trial could not be started");
  }
}
