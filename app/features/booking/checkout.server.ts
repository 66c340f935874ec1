import { randomUUID } from "node:crypto";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { cardCharges, orders, payments } from "~/db/schema";
import { executePrepared, preparedStatement } from "~/db/prepared-statement.server";
import { templateMailInsert } from "~/platform/mail/outbox.server";
import { trialAvailable, trialStart } from "~/features/memberships/enrolment.server";
import { countPayment } from "~/platform/observability/metrics.server";
import { trialEndsAt, trialFee } from "~/features/memberships/trial-offer";
import type { Card, CardFormGateway, SavedPaymentMethod } from "~/features/payments/gateway";
import { PAYMENT_PENDING } from "~/features/payments/payment-answers";
import { confirmationMailTemplate } from "./confirmation-mail-template.server";
import { consentWording } from "./start-consent";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { orderStatusWrite } from "./order-status.server";
import { isPaidStatus, type OrderStatus } from "./order-status";
import type { OrderDetails } from "./order-details";
import { findOrder } from "./orders.server";
import { bookingPageUrl } from "./flight-day-calendar";
import { voucherCheckUrl, voucherCode } from "./voucher.server";

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
interface PaymentRecord {
  provider: string;
  providerRef: string;
  brand: string;
  last4: string;
  outcome: string;
  /** When the money was taken: a trial the payment starts runs from then. */
  createdAt: Date;
}

type Locked = { customerId: string } | Exclude<PaymentResult, { kind: "declined" }>;

/** The order as `findOrder` read it (null: there is none), when the caller has read it already. */
type ReadOrder = OrderDetails | null;

/**
 * Locks an order for its payment, until the transaction ends, so that two payments of one order
 * cannot both go through: the caller goes on only with an order still "not_paid".
 */
export async function lockOrderForPayment(tx: Database, orderId: string): Promise<Locked> {
  const [locked] = await executePrepared<{ status: OrderStatus; customer_id: string }>(
    tx,
    sql`select ${orders.status}, ${orders.customerId} from ${orders} where ${orders.id} = ${orderId}::uuid for update`,
  );
  return locked?.status === "not_paid" ? { customerId: locked.customer_id } : whyNotPayable(locked);
}

/** Why an order found not "not_paid" cannot be paid, or that it is gone. */
function whyNotPayable(order: { status: OrderStatus } | undefined): Exclude<Locked, { customerId: string }> {
  // Deleted meanwhile, unpaid past its 48 hours (ADR 008): nothing was charged.
  if (!order) return { kind: "not-found" };
  if (isPaidStatus(order.status)) return { kind: "paid", alreadyPaid: true };
  return { kind: "not-payable", status: order.status };
}

/**
 * Keeps with the order the request to start within the withdrawal period, in the words shown for
 * it, and when it was made: the latest one. The words depend on whether the payment starts a trial,
 * which the address `trialFor` may still do (`trialAvailable`; none for null), decided in the same
 * statement. Returns whether it does.
 */
export async function recordConsent(
  db: Database,
  orderId: string,
  { trialFor, at }: { trialFor: string | null; at: Date },
): Promise<boolean> {
  const [kept] = await executePrepared<{ may: boolean }>(
    db,
    sql`${keepConsent({
      orderId: sql`${orderId}::uuid`,
      email: sql`${trialFor?.toLowerCase() ?? null}::text`,
      at: sql`${at.toISOString()}::timestamptz`,
    })} returning trial.may`,
  );
  return kept?.may ?? false;
}

/**
 * The update that keeps an order's consent, worded by whether the address (lower-cased) may still
 * start a trial (`trialAvailable`, as `trial.may` for what the caller adds: more conditions, its
 * `returning`): `recordConsent`, and a card payment's first statement.
 */
const keepConsent = ({ orderId, email, at }: { orderId: SQL; email: SQL; at: SQL }) =>
  sql`update ${orders} set consent_wording = case when trial.may then ${consentWording(true)}::text else ${consentWording(false)}::text end,
    consented_at = ${at}
  from (select ${trialAvailable(email)} as may) as trial
  where ${orders.id} = ${orderId}`;

/**
 * What the voucher's QR code holds, signed before any money moves, so that a problem here (no
 * secret) cannot follow a charge. `origin` is the site's public origin, for the mail's links and the QR code.
 */
export function voucherCheckUrlFor(orderId: string, origin: string) {
  return voucherCheckUrl(origin, voucherCode(orderId));
}

/** What a successful payment completes: `completePaidOrder`'s input. */
interface PaidOrder {
  order: OrderDetails;
  /** The order's customer, or an expression of the statement's earlier parts that reads it. */
  customerId: string | SQL;
  /** When it was paid, and what the order's history says of how: the card, or the member's free accesses. */
  paid: { at: Date; note: string };
  /**
   * The trial this payment starts, if the address has had none: with the card our job bills (the
   * sandbox), or billed by the provider once this transaction is committed; none at all.
   */
  trial: { keptCard: SavedPaymentMethod } | { billedByProvider: true } | null;
  voucherCheckUrl: string;
  origin: string;
}

/**
 * What a successful payment does, in its transaction with the order locked and read "not_paid"
 * under that lock: the first paid fast track of an address starts its membership trial with the
 * card kept for the fees (when our job bills it; the provider's subscription follows the commit
 * otherwise), the order turns paid and the confirmation e-mail is queued, with what the contract
 * holds, for the outbox worker to compose, all in one statement. Turning paid draws the invoice
 * number at the commit, which holds every other payment until then (ADR 028).
 */
async function completePaidOrder(tx: Database, paidOrder: PaidOrder) {
  await executePrepared(tx, sql`with ${paidOrderWrite(tx, paidOrder)} select`);
}

/**
 * `completePaidOrder` as the parts of a `with` list, done only if the relation `when` has a row:
 * a card payment's settling, which locks the order and records its payment in earlier parts.
 */
function paidOrderWrite(
  db: Database,
  { order, customerId, paid, trial, voucherCheckUrl, origin }: PaidOrder,
  when?: SQL,
): SQL {
  const email = order.email;
  const startTrial =
    email && trial && "keptCard" in trial
      ? trialStart(
          {
            customerId,
            email,
            orderId: order.id,
            currency: order.currency,
            paymentMethod: trial.keptCard,
            paidAt: paid.at,
            origin,
          },
          when,
        )
      : null;
  const membership = { trialEndsAt: trialEndsAt(paid.at).toISOString(), fee: trialFee() };
  const status = orderStatusWrite(
    db,
    { id: order.id, status: "not_paid", amount: order.amount },
    {
      to: "paid",
      actor: CUSTOMER_ACTOR,
      note: paid.note,
      // The voucher's short code and the consent, as the order holds them once paid (ADR 015), and
      // the trial if this statement started one; the invoice number is drawn at the commit, and the
      // worker reads it (ADR 028).
      alongside:
        email === null
          ? undefined
          : (changed) =>
              templateMailInsert(confirmationMailTemplate, {
                to: email,
                data: {
                  customerName: order.customerName,
                  orderNumber: order.orderNumber,
                  airport: order.airport,
                  flightDate: order.flightDate,
                  adults: order.adults,
                  children: order.children,
                  freeAccesses: order.freeAccesses,
                  amount: order.amount,
                  currency: order.currency,
                  voucherCheckUrl,
                  bookingUrl: bookingPageUrl(origin, order.id),
                  origin,
                  paidAt: paid.at.toISOString(),
                },
                computed: {
                  voucherShortCode: sql`(select voucher_short_code from ${changed})`,
                  consent: sql`(select consent_wording from ${changed})`,
                  membership: startTrial
                    ? sql`(select ${JSON.stringify(membership)}::jsonb from ${startTrial.inserted})`
                    : trial
                      ? sql`case when ${trialAvailable(sql`${email.toLowerCase()}::text`)} then ${JSON.stringify(membership)}::jsonb end`
                      : sql`null::jsonb`,
                },
                onlyWith: changed,
              }),
    },
    when,
  );
  return startTrial ? sql`${startTrial.parts}, ${status}` : status;
}

/**
 * Pays an order with a card typed into our own page (the sandbox gateway), in three steps so that no
 * transaction waits on the gateway and no crash charges twice (ADR 004): with the order locked, the
 * charge is opened with its idempotency key (`card_charges`, or the open one a request that died left
 * behind); the gateway is called with that key; with the order locked again, its answer is recorded
 * (a payment row per answer) and, paid, the order completed. Two requests for one order send the same
 * key, and the gateway gives both one answer: only one of them completes the order.
 */
export async function payForOrder(
  db: Database,
  gateway: CardFormGateway,
  {
    orderId,
    order: read,
    card,
    origin,
    consentedAt,
  }: { orderId: string; order?: ReadOrder; card: Card; origin: string; consentedAt: Date },
): Promise<PaymentResult> {
  const order = read === undefined ? await findOrder(db, orderId) : read;
  if (!order) return { kind: "not-found" };
  if (isFreeBooking(order)) return { kind: "declined", message: FREE_BOOKING };
  const voucherCheckUrl = voucherCheckUrlFor(orderId, origin);
  return countedPayment(async (): Promise<PaymentResult> => {
    const opened = await openCardCharge(db, { orderId, email: order.email, consentedAt });
    if ("kind" in opened) return opened;

    const charge = await gateway.charge({
      orderId,
      amount: order.amount,
      currency: order.currency,
      card,
      saveCard: opened.saveCard,
      idempotencyKey: opened.charge.idempotencyKey,
    });

    const payment = {
      provider: gateway.name,
      providerRef: charge.providerRef,
      brand: charge.brand,
      last4: charge.last4,
      outcome: charge.outcome,
      createdAt: new Date(),
    };
    return settlePayment(db, {
      order,
      chargeId: opened.charge.id,
      payment,
      outcome:
        charge.outcome === "succeeded"
          ? {
              completes: {
                trial: charge.paymentMethod ? { keptCard: charge.paymentMethod } : null,
                voucherCheckUrl,
                origin,
              },
            }
          : { declined: charge.message },
    });
  });
}

/**
 * Confirms a booking whose passengers the member's free accesses all cover (ADR 029): nothing to
 * charge, so no gateway; with the order locked, the consent is kept and the order completed as a
 * paid one is, voucher and e-mail included. Any other order is not confirmed this way.
 */
export async function confirmFreeBooking(
  db: Database,
  {
    orderId,
    order: read,
    origin,
    consentedAt,
  }: { orderId: string; order?: ReadOrder; origin: string; consentedAt: Date },
): Promise<PaymentResult> {
  const order = read === undefined ? await findOrder(db, orderId) : read;
  if (!order) return { kind: "not-found" };
  if (!isFreeBooking(order)) return { kind: "declined", message: NOT_FREE };
  const voucherCheckUrl = voucherCheckUrlFor(orderId, origin);
  return db.transaction(async (tx): Promise<PaymentResult> => {
    const locked = await lockOrderForPayment(tx, orderId);
    if ("kind" in locked) return locked;
    await recordConsent(tx, orderId, { trialFor: null, at: consentedAt });
    const note = `${order.freeAccesses} free ${order.freeAccesses === 1 ? "access" : "accesses"} of the membership`;
    await completePaidOrder(tx, {
      order,
      customerId: locked.customerId,
      paid: { at: consentedAt, note },
      trial: null,
      voucherCheckUrl,
      origin,
    });
    return { kind: "paid", alreadyPaid: false };
  });
}

const NOT_FREE = "This booking has a price: please pay it with your card.";

/** Said to a request that would charge a booking the member's free accesses cover. */
export const FREE_BOOKING = "This booking is covered by your free accesses: there is nothing to pay.";

/** A booking that costs nothing: every passenger on the member's free accesses. */
export function isFreeBooking(order: Pick<OrderDetails, "amount" | "freeAccesses">): boolean {
  return order.amount === 0 && order.freeAccesses > 0;
}

/** What the order's history says of a payment: the card and the gateway's reference. */
function paidWith(payment: PaymentRecord): { at: Date; note: string } {
  return {
    at: payment.createdAt,
    note: `${payment.brand} ending ${payment.last4}, ${payment.provider} ${payment.providerRef}`,
  };
}

const value = sql.placeholder;

/**
 * The first step of `payForOrder` in one statement: the update locks the order while it is still
 * "not_paid" and keeps the consent (worded by whether the address may still start its trial), then
 * the order's open card charge is taken, or a new one inserted with a key of its own. The statement
 * reads with the snapshot it started with, which misses a charge that a request for the same order
 * committed while this one waited for the lock; the unique open charge per order then refuses the
 * insert, and the statement is run again, with a snapshot that sees it.
 */
const openCharge = preparedStatement<{ save_card: boolean; charge_id: string | null; idempotency_key: string | null }>(
  "open_card_charge",
  sql`
    with consented as (
      ${keepConsent({
        orderId: sql`${value("orderId")}::uuid`,
        email: sql`${value("email")}::text`,
        at: sql`${value("consentedAt")}::timestamptz`,
      })} and ${orders.status} = 'not_paid'
      returning trial.may as save_card
    ), open_charge as (
      select id, idempotency_key from ${cardCharges} where order_id = ${value("orderId")}::uuid and settled_at is null
    ), new_charge as (
      insert into ${cardCharges} (order_id, idempotency_key)
      select ${value("orderId")}::uuid, ${value("idempotencyKey")}::text from consented
      where not exists (select from open_charge)
      on conflict do nothing
      returning id, idempotency_key
    )
    select consented.save_card, charge.id as charge_id, charge.idempotency_key
    from consented left join (select * from open_charge union all select * from new_charge) as charge on true`,
);

/**
 * Records what a gateway answered about an order's payment, in one statement without a transaction
 * of its own: locks the order, settles the sandbox's card charge (`chargeId`, when there is one),
 * and writes the answer as a payment row if the order is still "not_paid" (a reference recorded
 * already is not recorded twice). The charge row is locked after the order, as the steps that open
 * it do. A payment that went through (`completes`) completes its order in the same statement, in
 * parts done only if the payment row was written; the statement holds the invoice series only for
 * its own commit (ADR 028). A second answer to the same key, or an order found paid under the lock,
 * changes nothing more.
 */
export async function settlePayment(
  db: Database,
  {
    order,
    chargeId,
    payment,
    outcome,
  }: {
    order: OrderDetails;
    chargeId?: string;
    payment: PaymentRecord;
    outcome: { completes: Omit<PaidOrder, "order" | "customerId" | "paid"> } | { declined: string };
  },
): Promise<PaymentResult> {
  const locked = sql`${sql.identifier("locked")}`;
  const recorded = sql`${sql.identifier("recorded")}`;
  const at = sql`${payment.createdAt.toISOString()}::timestamptz`;
  const settling = chargeId
    ? sql`, settled as (
      update ${cardCharges} set settled_at = ${at} from ${locked} where ${cardCharges.id} = ${chargeId}::uuid
    )`
    : sql``;
  const completed =
    "completes" in outcome
      ? sql`, ${paidOrderWrite(
          db,
          {
            ...outcome.completes,
            order,
            customerId: sql`(select customer_id from ${locked})`,
            paid: paidWith(payment),
          },
          recorded,
        )}`
      : sql``;
  const [settled] = await executePrepared<{ status: OrderStatus; recorded: boolean }>(
    db,
    sql`with ${locked} as (
      select ${orders.status}, ${orders.customerId} from ${orders} where ${orders.id} = ${order.id}::uuid for update
    )${settling}, ${recorded} as (
      insert into ${payments} (order_id, amount, currency, provider, provider_ref, brand, last4, outcome, created_at)
      select ${order.id}::uuid, ${order.amount}::integer, ${order.currency}::text, ${payment.provider}::text,
        ${payment.providerRef}::text, ${payment.brand}::text, ${payment.last4}::text, ${payment.outcome}::text, ${at}
      from ${locked} where ${locked}.status = 'not_paid'
      on conflict (provider_ref) do nothing
      returning id
    )${completed}
    select ${locked}.status, exists (select from ${recorded}) as recorded from ${locked}`,
  );
  // Paid meanwhile by a request that sent the same key, so the same answer: recorded by it.
  if (settled?.status !== "not_paid") return whyNotPayable(settled);
  if ("declined" in outcome) return { kind: "declined", message: outcome.declined };
  // A payment answered to two requests with one key is one payment row, and pays the order once.
  return { kind: "paid", alreadyPaid: !settled.recorded };
}

/**
 * Opens the order's card charge (`openCharge`): whether the gateway should keep the card for a
 * trial, and the charge with its key; or why the order cannot be paid.
 */
async function openCardCharge(
  db: Database,
  { orderId, email, consentedAt }: { orderId: string; email: string | null; consentedAt: Date },
): Promise<{ saveCard: boolean; charge: { id: string; idempotencyKey: string } } | ReturnType<typeof whyNotPayable>> {
  const values = {
    orderId,
    email: email?.toLowerCase() ?? null,
    consentedAt: consentedAt.toISOString(),
  };
  for (let attempt = 1; attempt <= 3; attempt++) {
    const [opened] = await openCharge(db, { ...values, idempotencyKey: `card:${orderId}:${randomUUID()}` });
    if (!opened) {
      const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
      return whyNotPayable(order);
    }
    if (opened.charge_id && opened.idempotency_key) {
      return { saveCard: opened.save_card, charge: { id: opened.charge_id, idempotencyKey: opened.idempotency_key } };
    }
  }
  throw new Error(`The card charge of order ${orderId} could not be opened`);
}
