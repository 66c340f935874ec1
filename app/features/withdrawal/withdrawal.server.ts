import { and, asc, eq, inArray, min } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  customers,
  invoices,
  memberships,
  orderEvents,
  orders,
  withdrawals,
  type WithdrawalOutcome,
} from "~/db/schema";
import { refundOrder } from "~/features/booking/order-refund.server";
import { CHARGED_ORDER_STATUSES, isPaidStatus } from "~/features/booking/order-status";
import { enqueueMail } from "~/features/mail/outbox.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { isLiveMembership, membershipPlanName } from "~/features/memberships/membership-status";
import type { PaymentGateway } from "~/features/payments/gateway";
import { refundedSoFar } from "~/features/payments/refunds.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { companyDay } from "~/lib/company-time";
import { withdrawalAcknowledgementMail, type WithdrawalRefundLine, type WithdrawalResult } from "./withdrawal-mail";
import { fastTrackRefund, unusedFeeRefund } from "./withdrawal-refunds";
import { lastDayToWithdraw, withdrawalPeriodEnd } from "~/features/legal/model-withdrawal-form";
import type { WithdrawalDetails } from "./withdrawal-schema";

/** The history's note and the refunds' reason, in French for the back office. */
const WITHDRAWAL_NOTE = "Rétractation du consommateur (fonction de rétractation en ligne)";

/**
 * The contract a statement names: a paid order whose number is the one typed and whose customer's
 * address is the one typed. A membership has no number of its own: its number is that of the order
 * whose payment started it, so the same lookup finds both. The name is recorded but not compared:
 * people write their names in many ways, and the number and address already identify the contract.
 */
async function findContract(
  db: Database,
  { contractNumber, email }: Pick<WithdrawalDetails, "contractNumber" | "email">,
) {
  const [order] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      amount: orders.amount,
      currency: orders.currency,
      flightDate: orders.flightDate,
      email: customers.email,
    })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .where(
      and(
        // Order numbers are made upper-case ("FT-…-ABCDEF"): the typed one is compared the same way.
        eq(orders.orderNumber, contractNumber.trim().toUpperCase()),
        eq(customers.email, email.trim().toLowerCase()),
        inArray(orders.status, CHARGED_ORDER_STATUSES),
      ),
    );
  if (!order?.email) return null;
  // The period runs from the confirmation e-mail, which goes in the transaction that makes the order
  // paid: that change's entry in the order's history is its time, for every way of paying.
  const [paid] = await db
    .select({ at: min(orderEvents.createdAt) })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, "paid")));
  if (!paid?.at) return null;
  const [membership] = await db.select().from(memberships).where(eq(memberships.orderId, order.id));
  return { order: { ...order, email: order.email }, paidAt: paid.at, membership: membership ?? null };
}

type Contract = NonNullable<Awaited<ReturnType<typeof findContract>>>;

interface WithdrawalContext {
  withdrawalId: string;
  contract: Contract;
  now: Date;
  origin: string;
  gateway: PaymentGateway;
}

/**
 * Ends the membership the order started, at once, and refunds the unused share of each fee paid for
 * it. During the free trial nothing was charged, so nothing is refunded.
 */
async function withdrawFromMembership(
  tx: Database,
  { withdrawalId, contract, now, origin, gateway }: WithdrawalContext,
): Promise<{ endedAt: Date | null; refunds: WithdrawalRefundLine[] }> {
  const { membership } = contract;
  if (!membership) return { endedAt: null, refunds: [] };
  let endedAt: Date | null = null;
  if (isLiveMembership(membership.status)) {
    const cancelled = await cancelMembership(tx, {
      membershipId: membership.id,
      atOnce: true,
      actor: CUSTOMER_ACTOR,
      now,
      origin,
      gateway,
      note: WITHDRAWAL_NOTE,
      notify: false,
    });
    if (cancelled.kind === "cancelled") endedAt = cancelled.accessUntil;
  }
  // What was used runs until the membership ended: now, or earlier if it had ended already.
  const until = endedAt ?? membership.endedAt ?? now;
  const paidFees = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.membershipId, membership.id), eq(invoices.status, "paid")))
    .orderBy(asc(invoices.periodStart));
  const refunds: WithdrawalRefundLine[] = [];
  for (const invoice of paidFees) {
    const amount = unusedFeeRefund({
      amount: invoice.amount,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      until,
      refundedBefore: await refundedSoFar(tx, { invoiceId: invoice.id }),
    });
    if (amount <= 0) continue;
    const outcome = await refundInvoice(tx, gateway, {
      invoiceId: invoice.id,
      refund: {
        amount,
        reason: `${WITHDRAWAL_NOTE} : part non utilisée`,
        idempotencyKey: `withdrawal:${withdrawalId}:invoice:${invoice.id}`,
      },
      actor: CUSTOMER_ACTOR,
    });
    if (outcome.kind === "refunded") {
      refunds.push({
        paidFor: `${membershipPlanName(membership.plan)} membership, ${formatMemberDay(invoice.periodStart)} to ${formatMemberDay(invoice.periodEnd)}`,
        amount,
        currency: invoice.currency,
      });
    }
  }
  return { endedAt, refunds };
}

/** Refunds the fast track while its flight day is still to come; says whether it was provided already. */
async function withdrawFromFastTrack(
  tx: Database,
  { withdrawalId, contract, now, gateway }: WithdrawalContext,
): Promise<{ provided: boolean; refund: WithdrawalRefundLine | null }> {
  const { order } = contract;
  const today = companyDay(now);
  const provided = isPaidStatus(order.status) && order.flightDate !== null && order.flightDate <= today;
  const amount = fastTrackRefund({
    status: order.status,
    flightDate: order.flightDate,
    today,
    amount: order.amount,
    refundedBefore: await refundedSoFar(tx, { orderId: order.id }),
  });
  if (amount <= 0) return { provided, refund: null };
  const outcome = await refundOrder(tx, gateway, {
    orderId: order.id,
    refund: { amount, reason: WITHDRAWAL_NOTE, idempotencyKey: `withdrawal:${withdrawalId}:order` },
    actor: CUSTOMER_ACTOR,
  });
  if (outcome.kind !== "refunded") return { provided, refund: null };
  return { provided, refund: { paidFor: `Fast Track order ${order.orderNumber}`, amount, currency: order.currency } };
}

async function applyWithdrawal(tx: Database, context: WithdrawalContext): Promise<WithdrawalResult> {
  const membership = await withdrawFromMembership(tx, context);
  const fastTrack = await withdrawFromFastTrack(tx, context);
  return {
    outcome: "withdrawn",
    membershipEndedAt: membership.endedAt,
    refunds: [...(fastTrack.refund ? [fastTrack.refund] : []), ...membership.refunds],
    fastTrackProvided: fastTrack.provided,
  };
}

function outcomeOf(contract: Contract | null, now: Date): WithdrawalOutcome {
  if (!contract) return "unmatched";
  return now < withdrawalPeriodEnd(contract.paidAt) ? "withdrawn" : "late";
}

/**
 * Records a statement made through the withdrawal function (CRD Art. 11a) and does what it asks, in
 * one transaction (the gateway's refunds included, as elsewhere): within the period, the membership
 * the order started ends at once and what was not provided is refunded; past it, nothing changes.
 * A matched contract's address gets the acknowledgement; an unmatched statement is only recorded,
 * and no address that is on no contract is ever written to. The answer is the time of receipt
 * whatever matched, so the page never tells whether a contract exists. A second statement with the
 * same key records nothing and answers the first one's time.
 */
export async function recordWithdrawal(
  db: Database,
  gateway: PaymentGateway,
  {
    details,
    idempotencyKey,
    origin,
    now = new Date(),
  }: { details: WithdrawalDetails; idempotencyKey: string; origin: string; now?: Date },
): Promise<{ receivedAt: Date }> {
  const earlier = async (tx: Database) => {
    const [row] = await tx
      .select({ receivedAt: withdrawals.receivedAt })
      .from(withdrawals)
      .where(eq(withdrawals.idempotencyKey, idempotencyKey));
    return row;
  };
  return db.transaction(async (tx) => {
    const known = await earlier(tx);
    if (known) return known;
    const contract = await findContract(tx, details);
    const outcome = outcomeOf(contract, now);
    const [row] = await tx
      .insert(withdrawals)
      .values({
        name: details.fullName,
        contractNumber: details.contractNumber,
        email: details.email.toLowerCase(),
        outcome,
        orderId: contract?.order.id ?? null,
        membershipId: contract?.membership?.id ?? null,
        idempotencyKey,
        receivedAt: now,
      })
      // The same confirmation sent twice at once: the second waits for the first and records nothing.
      .onConflictDoNothing({ target: withdrawals.idempotencyKey })
      .returning({ id: withdrawals.id, receivedAt: withdrawals.receivedAt });
    if (!row) return (await earlier(tx))!;
    if (!contract) return { receivedAt: row.receivedAt };
    const result: WithdrawalResult =
      outcome === "withdrawn"
        ? await applyWithdrawal(tx, { withdrawalId: row.id, contract, now, origin, gateway })
        : { outcome: "late", lastDay: lastDayToWithdraw(contract.paidAt) };
    await enqueueMail(
      tx,
      await withdrawalAcknowledgementMail({
        to: contract.order.email,
        name: details.fullName,
        contractNumber: details.contractNumber,
        receivedAt: row.receivedAt,
        origin,
        result,
      }),
    );
    return { receivedAt: row.receivedAt };
  });
}
