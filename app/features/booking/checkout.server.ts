import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, payments } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { mayStartTrial, startTrial } from "~/features/memberships/enrolment.server";
import { countPayment } from "~/features/observability/metrics.server";
import { trialEndsAt } from "~/features/memberships/trial-offer";
import type { Card, CardFormGateway, SavedPaymentMethod } from "~/features/payments/gateway";
import { PAYMENT_PENDING } from "~/features/payments/payment-answers";
import { confirmationMail } from "./confirmation-mail";
import { consentWording } from "./start-consent";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { changeOrderStatus } from "./order-status.server";
import { isPaidStatus, type OrderStatus } from "./order-status";
import type { OrderDetails } from "./order-details";
import { findOrder } from "./orders.server";
import { bookingPageUrl } from "./flight-day-calendar";
import { giveVoucherShortCode } from "./voucher-short-code.server";
import { voucherCheckUrl, voucherCode, voucherQrPng } from "./voucher.server";

export type PaymentResult =
  | { kind: "not-found" }
  | { kind: "paid"; alreadyPaid: boolean }
  | { kind: "declined"; message: string }
  | { kind: "not-payable"; status: OrderStatus };

/** A payment settled by what the provider says, which may be that the bank has not decided yet. */
export type SettledPayment = PaymentResult | { kind: "pending" };

/**
 * Why a payment did not go through, as the payer reads it, with its HTTP status: the payment page's
 * action and its Stripe opening step answer alike.
 */
export function paymentRefusal(payment: Exclude<SettledPayment, { kind: "paid" }>): {
  status: number;
  message: string;
} {
  switch (payment.kind) {
    case "not-found":
      return { status: 404, message: "Order not found" };
    case "declined":
      return { status: 402, message: payment.message };
    case "not-payable":
      return { status: 409, message: `This order is ${payment.status} and can no longer be paid.` };
    case "pending":
      return { status: 202, message: PAYMENT_PENDING };
  }
}

/**
 * Waits for an attempt to pay and counts its outcome (/metrics): paid once per order, however many
 * times the payer's return and the provider's events settle it; an order unknown, not payable or
 * already paid is no attempt. A failure (the gateway or the database) counts as an error.
 */
export async function countedPayment<T extends SettledPayment>(attempt: () => Promise<T>): Promise<T> {
  let payment: T;
  try {
    payment = await attempt();
  } catch (error) {
    countPayment("error");
    throw error;
  }
  if (payment.kind === "paid" && !payment.alreadyPaid) countPayment("paid");
  else if (payment.kind === "declined" || payment.kind === "pending") countPayment(payment.kind);
  return payment;
}

/** One attempt to pay, as the payments table records it: never the card number or CVV. */
export interface PaymentRecord {
  provider: string;
  providerRef: string;
  brand: string;
  last4: string;
  outcome: string;
  /** When the money was taken: a trial the payment starts runs from then. */
  createdAt: Date;
}

type Locked = { customerId: string } | Exclude<PaymentResult, { kind: "declined" }>;

/**
 * Locks an order for its payment, until the transaction ends, so that two payments of one order
 * cannot both go through: the caller goes on only with an order still "Not Paid".
 */
export async function lockOrderForPayment(tx: Database, orderId: string): Promise<Locked> {
  const [locked] = await tx
    .select({ status: orders.status, customerId: orders.customerId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("update");
  // Deleted meanwhile, unpaid past its 48 hours (ADR 008): nothing was charged.
  if (!locked) return { kind: "not-found" };
  if (isPaidStatus(locked.status)) return { kind: "paid", alreadyPaid: true };
  if (locked.status !== "Not Paid") return { kind: "not-payable", status: locked.status };
  return { customerId: locked.customerId };
}

/**
 * Keeps with the order the request to start within the withdrawal period, in the words shown for
 * it (whether the payment starts a trial changes them), and when it was made: the latest one.
 */
export async function recordConsent(
  tx: Database,
  orderId: string,
  { startsTrial, at }: { startsTrial: boolean; at: Date },
) {
  await tx
    .update(orders)
    .set({ consentWording: consentWording(startsTrial), consentedAt: at })
    .where(eq(orders.id, orderId));
}

export async function recordPayment(tx: Database, order: OrderDetails, payment: PaymentRecord) {
  await tx.insert(payments).values({ orderId: order.id, amount: order.amount, currency: order.currency, ...payment });
}

/**
 * The voucher's QR code, made before any money moves, so that a problem here (no secret) cannot
 * follow a charge. `origin` is the site's public origin, for the mail's links and the QR code.
 */
export function voucherQrFor(orderId: string, origin: string) {
  return voucherQrPng(voucherCheckUrl(origin, voucherCode(orderId)));
}

/**
 * What a successful payment does, in its transaction with the order locked: the order turns paid,
 * the first paid fast track of an address starts its membership trial with the card kept for the
 * fees (when our job bills it; the provider's subscription follows the commit otherwise), and the
 * confirmation e-mail is queued with what the contract holds.
 */
export async function completePaidOrder(
  tx: Database,
  {
    order,
    customerId,
    payment,
    trial,
    qrPng,
    origin,
  }: {
    order: OrderDetails;
    customerId: string;
    payment: PaymentRecord;
    /**
     * The trial this payment starts: with the card our job bills (the sandbox), or billed by the
     * provider once this transaction is committed; none if the address has had one.
     */
    trial: { keptCard: SavedPaymentMethod } | { billedByProvider: true } | null;
    qrPng: string;
    origin: string;
  },
) {
  await changeOrderStatus(tx, {
    orderId: order.id,
    to: "paid",
    actor: CUSTOMER_ACTOR,
    note: `${payment.brand} ending ${payment.last4}, ${payment.provider} ${payment.providerRef}`,
  });
  let startsTrial = trial !== null;
  if (order.email && trial && "keptCard" in trial) {
    const started = await startTrial(tx, {
      customerId,
      email: order.email,
      orderId: order.id,
      currency: order.currency,
      paymentMethod: trial.keptCard,
      paidAt: payment.createdAt,
      origin,
    });
    startsTrial = started !== null;
  }
  if (order.email) {
    const [consent] = await tx.select({ wording: orders.consentWording }).from(orders).where(eq(orders.id, order.id));
    const voucherShortCode = await giveVoucherShortCode(tx, order.id);
    await enqueueMail(
      tx,
      await confirmationMail({
        ...order,
        to: order.email,
        voucherShortCode,
        voucherQrPng: qrPng,
        bookingUrl: bookingPageUrl(origin, order.id),
        origin,
        paidAt: payment.createdAt,
        consent: consent?.wording ?? null,
        membership: startsTrial ? { trialEndsAt: trialEndsAt(payment.createdAt) } : null,
      }),
    );
  }
}

/**
 * Pays an order with a card typed into our own page (the sandbox gateway). The order row stays
 * locked from the check to the commit; an order that is already paid is not charged again. Every
 * attempt is recorded in payments.
 */
export async function payForOrder(
  db: Database,
  gateway: CardFormGateway,
  { orderId, card, origin, consentedAt }: { orderId: string; card: Card; origin: string; consentedAt: Date },
): Promise<PaymentResult> {
  const order = await findOrder(db, orderId);
  if (!order) return { kind: "not-found" };
  const qrPng = voucherQrFor(orderId, origin);
  return countedPayment(() =>
    db.transaction(async (tx): Promise<PaymentResult> => {
      const locked = await lockOrderForPayment(tx, orderId);
      if ("kind" in locked) return locked;

      const saveCard = await mayStartTrial(tx, order.email);
      await recordConsent(tx, orderId, { startsTrial: saveCard, at: consentedAt });
      const charge = await gateway.charge({ orderId, amount: order.amount, currency: order.currency, card, saveCard });
      const payment = {
        provider: gateway.name,
        providerRef: charge.providerRef,
        brand: charge.brand,
        last4: charge.last4,
        outcome: charge.outcome,
        createdAt: new Date(),
      };
      await recordPayment(tx, order, payment);
      if (charge.outcome !== "succeeded") return { kind: "declined", message: charge.message };
      await completePaidOrder(tx, {
        order,
        customerId: locked.customerId,
        payment,
        trial: charge.paymentMethod ? { keptCard: charge.paymentMethod } : null,
        qrPng,
        origin,
      });
      return { kind: "paid", alreadyPaid: false };
    }),
  );
}
