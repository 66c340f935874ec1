import { and, asc, count, eq, gt, inArray, lte, min, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  customers,
  invoices,
  memberships,
  orderEvents,
  orders,
  withdrawalOverflow,
  withdrawals,
  type WithdrawalOutcome,
  type WithdrawalScope,
} from "~/db/schema";
import { orderRefunds, refundOrder } from "~/features/booking/order-refund.server";
import { CHARGED_ORDER_STATUSES, isPaidStatus } from "~/features/booking/order-status";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { decideCancellation } from "~/features/memberships/cancellation.server";
import { tellProviderCancel } from "~/features/memberships/provider-cancel.server";
import { invoiceRefunds, refundInvoice } from "~/features/memberships/invoice-refund.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { isLiveMembership, membershipPlanName } from "~/features/memberships/membership-status";
import type { PaymentGateway } from "~/features/payments/gateway";
import { finishRefundByKey, refundedSoFar } from "~/features/payments/refunds.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { companyDay } from "~/lib/company-time";
import { logger } from "~/logger.server";
import { withdrawalAcknowledgementMail, type WithdrawalRefundLine, type WithdrawalResult } from "./withdrawal-mail";
import { fastTrackRefund, unusedFeeRefund } from "./withdrawal-refunds";
import { lastDayToWithdraw, withdrawalPeriodEnd } from "~/features/legal/model-withdrawal-form";
import type { WithdrawalDetails } from "./withdrawal-schema";

/** The history's note and the refunds' reason, in French for the back office. */
const WITHDRAWAL_NOTE = "Rétractation du consommateur (fonction de rétractation en ligne)";

/**
 * The contract a statement names: a paid order whose number is the one typed and whose customer's
 * address is the one typed, with the membership its payment started; or a membership by its
 * membership number ("2915-77F4-830F") and address: one started at the membership checkout has no
 * order, one a fast track started is that order's contract.
 * The name is recorded but not compared: people write their names in many ways, and the number and
 * address already identify the contract.
 */
async function findContract(
  db: Database,
  details: Pick<WithdrawalDetails, "contractNumber" | "email">,
  { lock = false } = {},
): Promise<Contract | null> {
  return (await findOrderContract(db, details, { lock })) ?? (await findCheckoutMembership(db, details, { lock }));
}

/** "2915-77F4-830F", with or without its dashes, in either case: the membership id's first 12 digits. */
const MEMBERSHIP_NUMBER = /^[0-9a-f]{12}$/;

async function findCheckoutMembership(
  db: Database,
  { contractNumber, email }: Pick<WithdrawalDetails, "contractNumber" | "email">,
  { lock }: { lock: boolean },
): Promise<Contract | null> {
  const digits = contractNumber.trim().toLowerCase().replaceAll("-", "");
  if (!MEMBERSHIP_NUMBER.test(digits)) return null;
  const query = db
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.email, email.trim().toLowerCase()),
        // Hex digits only, so the pattern has no wildcard of the visitor's.
        sql`${memberships.id}::text like ${`${digits.slice(0, 8)}-${digits.slice(8)}-%`}`,
      ),
    );
  const [membership] = lock ? await query.for("update") : await query;
  if (membership?.orderId) {
    // A trial its first fast track started: the contract is that order's, as its number finds it.
    const [order] = await db
      .select({ number: orders.orderNumber })
      .from(orders)
      .where(eq(orders.id, membership.orderId));
    return order ? findOrderContract(db, { contractNumber: order.number, email }, { lock }) : null;
  }
  if (!membership?.email || !membership.consentedAt) return null;
  // The period runs from the contract e-mail, sent in the transaction that started the trial.
  return { order: null, email: membership.email, paidAt: membership.consentedAt, membership };
}

async function findOrderContract(
  db: Database,
  { contractNumber, email }: Pick<WithdrawalDetails, "contractNumber" | "email">,
  { lock }: { lock: boolean },
) {
  const orderQuery = db
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
  // Statements about one contract take its order, then its membership, before anything else: the
  // statement's insert holds a share lock on both (its foreign keys), and two statements that each
  // held one and then wanted the membership for its cancellation deadlocked.
  const [order] = lock ? await orderQuery.for("update", { of: orders }) : await orderQuery;
  if (!order?.email) return null;
  // The period runs from the confirmation e-mail, which goes in the transaction that makes the order
  // paid: that change's entry in the order's history is its time, for every way of paying.
  const [paid] = await db
    .select({ at: min(orderEvents.createdAt) })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, "paid")));
  if (!paid?.at) return null;
  const membershipQuery = db.select().from(memberships).where(eq(memberships.orderId, order.id));
  const [membership] = lock ? await membershipQuery.for("update") : await membershipQuery;
  return { order, email: order.email, paidAt: paid.at, membership: membership ?? null };
}

interface Contract {
  /** The order named, or null for a membership started at the membership checkout. */
  order: Omit<NonNullable<Awaited<ReturnType<typeof findOrderContract>>>["order"], "email"> | null;
  /** Where the acknowledgement goes: the contract's own address. */
  email: string;
  /** When the contract was confirmed: the withdrawal period runs from then. */
  paidAt: Date;
  membership: typeof memberships.$inferSelect | null;
}

/** A recorded statement that matched a contract in time, as the refunds read it. */
interface Withdrawn {
  id: string;
  scope: WithdrawalScope;
  receivedAt: Date;
  contract: Contract;
}

const includesMembership = (scope: WithdrawalScope) => scope !== "fast-track";
const includesFastTrack = (scope: WithdrawalScope) => scope !== "membership";

/**
 * Ends at once the membership the order started, if the statement is about it and it still runs,
 * in the statement's transaction. Stripe is told after the commit, and its fees are refunded then
 * too (`refundWithdrawal`).
 */
async function endMembership(
  tx: Database,
  { scope, receivedAt, contract }: Omit<Withdrawn, "id">,
  { origin }: { origin: string },
): Promise<{ endedAt: Date; tellProvider: boolean } | null> {
  const { membership } = contract;
  if (!membership || !includesMembership(scope) || !isLiveMembership(membership.status)) return null;
  const { outcome, billedByProvider = false } = await decideCancellation(tx, {
    membershipId: membership.id,
    atOnce: true,
    actor: CUSTOMER_ACTOR,
    now: receivedAt,
    origin,
    note: WITHDRAWAL_NOTE,
    notify: false,
  });
  return outcome.kind === "cancelled" ? { endedAt: outcome.accessUntil, tellProvider: billedByProvider } : null;
}

/**
 * The refunds a withdrawal owes (Art. 14(3)): the unused share of each fee paid for the membership
 * (what was used runs until the membership ended), and the fast track in full while its flight day
 * is still to come. Each is worked out from what is stored (the statement's time, the membership's
 * end) and made under a key of the statement's, so that running this again, after a failure or for
 * the same statement sent again, refunds nothing twice. Returns what it refunded, and whether a
 * refund failed (it is then logged, and made when this runs again).
 */
async function refundWithdrawal(
  db: Database,
  gateway: PaymentGateway,
  { id, scope, receivedAt, contract }: Withdrawn,
): Promise<{ refunds: WithdrawalRefundLine[]; fastTrackProvided: boolean; failed: boolean }> {
  const refunds: WithdrawalRefundLine[] = [];
  let failed = false;
  const attempt = async (what: string, refund: () => Promise<WithdrawalRefundLine | null>) => {
    try {
      const made = await refund();
      if (made) refunds.push(made);
    } catch (error) {
      failed = true;
      logger.error({ err: error, withdrawalId: id, what }, "withdrawal: a refund could not be made");
    }
  };

  const [membership] = contract.membership
    ? await db.select().from(memberships).where(eq(memberships.id, contract.membership.id))
    : [];
  if (membership && includesMembership(scope)) {
    const until = membership.endedAt && membership.endedAt < receivedAt ? membership.endedAt : receivedAt;
    const paidFees = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.membershipId, membership.id), eq(invoices.status, "paid")))
      .orderBy(asc(invoices.periodStart));
    for (const invoice of paidFees) {
      await attempt(`invoice ${invoice.id}`, async () => {
        const idempotencyKey = `withdrawal:${id}:invoice:${invoice.id}`;
        const paidFor = `${membershipPlanName(membership.plan)} membership, ${formatMemberDay(invoice.periodStart)} to ${formatMemberDay(invoice.periodEnd)}`;
        // Asked for before and left pending (the gateway failed): finished under its own key.
        const resumed = await finishRefundByKey(db, gateway, invoiceRefunds, idempotencyKey);
        if (resumed)
          return resumed.kind === "refunded" ? { paidFor, amount: resumed.amount, currency: invoice.currency } : null;
        const amount = unusedFeeRefund({
          amount: invoice.amount,
          periodStart: invoice.periodStart,
          periodEnd: invoice.periodEnd,
          until,
          refundedBefore: await refundedSoFar(db, { invoiceId: invoice.id }),
        });
        if (amount <= 0) return null;
        const outcome = await refundInvoice(db, gateway, {
          invoiceId: invoice.id,
          refund: {
            amount,
            reason: `${WITHDRAWAL_NOTE} : part non utilisée`,
            idempotencyKey,
          },
          actor: CUSTOMER_ACTOR,
        });
        if (outcome.kind !== "refunded") return null;
        return { paidFor, amount, currency: invoice.currency };
      });
    }
  }

  const { order } = contract;
  const today = companyDay(receivedAt);
  const fastTrackProvided =
    order !== null &&
    includesFastTrack(scope) &&
    isPaidStatus(order.status) &&
    order.flightDate !== null &&
    order.flightDate <= today;
  if (order && includesFastTrack(scope) && order.status === "paid" && order.amount === 0 && !fastTrackProvided) {
    // Nothing was charged (the member's free accesses, ADR 029): the booking is cancelled, which
    // voids its voucher and gives the accesses back.
    await attempt("free fast track", async () => {
      await changeOrderStatus(db, { orderId: order.id, to: "cancelled", actor: CUSTOMER_ACTOR, note: WITHDRAWAL_NOTE });
      return null;
    });
  } else if (order && includesFastTrack(scope)) {
    await attempt("fast track", async () => {
      const idempotencyKey = `withdrawal:${id}:order`;
      const paidFor = `Fast Track order ${order.orderNumber}`;
      const resumed = await finishRefundByKey(db, gateway, orderRefunds, idempotencyKey);
      if (resumed)
        return resumed.kind === "refunded" ? { paidFor, amount: resumed.amount, currency: order.currency } : null;
      const amount = fastTrackRefund({
        status: order.status,
        flightDate: order.flightDate,
        today,
        amount: order.amount,
        refundedBefore: await refundedSoFar(db, { orderId: order.id }),
      });
      if (amount <= 0) return null;
      const outcome = await refundOrder(db, gateway, {
        orderId: order.id,
        refund: { amount, reason: WITHDRAWAL_NOTE, idempotencyKey },
        actor: CUSTOMER_ACTOR,
      });
      if (outcome.kind !== "refunded") return null;
      return { paidFor, amount, currency: order.currency };
    });
  }
  return { refunds, fastTrackProvided, failed };
}

/**
 * Unmatched statements kept per hour, across every address: past it, one more is counted in
 * `withdrawal_overflow` instead (the back office shows the count), so that a flood of junk cannot
 * fill the table or bury a genuine statement. Each address is also rate-limited, as every form is.
 */
export const UNMATCHED_STATEMENTS_PER_HOUR = 100;

async function unmatchedCapReached(tx: Database, now: Date): Promise<boolean> {
  const [{ kept } = { kept: 0 }] = await tx
    .select({ kept: count() })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.outcome, "unmatched"),
        gt(withdrawals.receivedAt, new Date(now.getTime() - 3_600_000)),
        lte(withdrawals.receivedAt, now),
      ),
    );
  if (kept < UNMATCHED_STATEMENTS_PER_HOUR) return false;
  await tx
    .insert(withdrawalOverflow)
    .values({ hour: sql`date_trunc('hour', ${now.toISOString()}::timestamptz)`, count: 1 })
    .onConflictDoUpdate({ target: withdrawalOverflow.hour, set: { count: sql`${withdrawalOverflow.count} + 1` } });
  return true;
}

function outcomeOf(contract: Contract | null, now: Date): WithdrawalOutcome {
  if (!contract) return "unmatched";
  return now < withdrawalPeriodEnd(contract.paidAt) ? "withdrawn" : "late";
}

/**
 * Records a statement made through the withdrawal function (CRD Art. 11a) and does what it asks.
 * The statement counts once sent, so it is committed first, with the end of the membership it
 * names; the refunds follow, each under a key of the statement's (`refundWithdrawal`), then the
 * acknowledgement, which goes only to the address of a matched contract: no address that is on no
 * contract is ever written to. Past the period nothing changes. The answer is the time of receipt
 * whatever matched, so the page never tells whether a contract exists. The same statement sent
 * again (its key) records nothing new, makes any refund that failed, and answers the first time.
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
  const recorded = await db.transaction(async (tx) => {
    const [known] = await tx.select().from(withdrawals).where(eq(withdrawals.idempotencyKey, idempotencyKey));
    if (known) return { row: known, first: false, contract: undefined };
    const contract = await findContract(tx, details, { lock: true });
    const outcome = outcomeOf(contract, now);
    if (outcome === "unmatched" && (await unmatchedCapReached(tx, now))) return { overflow: true as const };
    const [row] = await tx
      .insert(withdrawals)
      .values({
        name: details.fullName,
        contractNumber: details.contractNumber,
        email: details.email.toLowerCase(),
        outcome,
        scope: details.scope,
        orderId: contract?.order?.id ?? null,
        membershipId: contract?.membership?.id ?? null,
        idempotencyKey,
        receivedAt: now,
      })
      // The same confirmation sent twice at once: the second waits for the first and records nothing.
      .onConflictDoNothing({ target: withdrawals.idempotencyKey })
      .returning();
    if (!row) {
      const [first] = await tx.select().from(withdrawals).where(eq(withdrawals.idempotencyKey, idempotencyKey));
      return { row: first!, first: false, contract: undefined };
    }
    const ended =
      contract && outcome === "withdrawn"
        ? await endMembership(tx, { scope: details.scope, receivedAt: now, contract }, { origin })
        : null;
    return { row, first: true, contract, membershipEndedAt: ended?.endedAt, tellProvider: ended?.tellProvider };
  });
  // Answered like any statement, so that the page tells nothing of what matched.
  if ("overflow" in recorded) return { receivedAt: now };
  const { row } = recorded;
  if (row.outcome === "unmatched") return { receivedAt: row.receivedAt };
  if (recorded.tellProvider && row.membershipId) {
    await tellProviderCancel(db, gateway, row.membershipId).catch((error: unknown) =>
      logger.warn({ err: error, withdrawalId: row.id }, "withdrawal: Stripe could not be told yet"),
    );
  }
  // The same statement sent again: its contract is looked up afresh, to make any refund still owed.
  const contract =
    recorded.contract ?? (await findContract(db, { contractNumber: row.contractNumber, email: row.email }));
  if (!contract) return { receivedAt: row.receivedAt };
  const withdrawn = { id: row.id, scope: row.scope, receivedAt: row.receivedAt, contract };
  const refunded = row.outcome === "withdrawn" ? await refundWithdrawal(db, gateway, withdrawn) : null;
  if (!recorded.first) return { receivedAt: row.receivedAt };
  const result: WithdrawalResult = refunded
    ? {
        outcome: "withdrawn",
        membershipEndedAt: recorded.membershipEndedAt ?? null,
        refunds: refunded.refunds,
        fastTrackProvided: refunded.fastTrackProvided,
        refundsPending: refunded.failed,
      }
    : { outcome: "late", lastDay: lastDayToWithdraw(contract.paidAt) };
  await enqueueMail(
    db,
    await withdrawalAcknowledgementMail({
      to: contract.email,
      name: details.fullName,
      contractNumber: details.contractNumber,
      receivedAt: row.receivedAt,
      origin,
      result,
    }),
  );
  return { receivedAt: row.receivedAt };
}
