import { randomUUID } from "node:crypto";
import { addDays, addHours, addMonths } from "date-fns";
import { and, asc, eq, gt, inArray, isNull, lte, notInArray, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { invoices, memberships } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import type { CardFormGateway } from "~/features/payments/gateway";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";
import { firstChargeComingMail, membershipEndedMail } from "./membership-mails";
import { changeMembership } from "./membership-status.server";
import { mailBasics, recordFeeDeclined, recordFeePaid } from "./fee-outcomes.server";
import { MEMBERSHIP_TERMS, RECURRING_MEMBERSHIP_STATUSES } from "./membership-status";

/** What a run did. Counts only: never who. */
export interface BillingCounts {
  trialReminders: number;
  invoicesCreated: number;
  charged: number;
  declined: number;
  canceledAtPeriodEnd: number;
  endedUnpaid: number;
  /** Attempts the gateway failed to answer (a network error): they are tried again on the next run. */
  gatewayErrors: number;
}

export const NO_BILLING_COUNTS: Readonly<BillingCounts> = {
  trialReminders: 0,
  invoicesCreated: 0,
  charged: 0,
  declined: 0,
  canceledAtPeriodEnd: 0,
  endedUnpaid: 0,
  gatewayErrors: 0,
};

export interface BillingOutcome {
  /** False when another run (another instance, or the CLI) held the lock: this one stopped there. */
  ran: boolean;
  counts: BillingCounts;
}

// Any fixed number works; it differs from the migrations' and the retention job's locks.
export const BILLING_LOCK_ID = 727_003;
const BATCH_SIZE = 100;

class LockTaken extends Error {}

type BillingLogger = Pick<Logger, "info" | "warn" | "error">;

interface BillingContext {
  db: Database;
  gateway: CardFormGateway;
  now: Date;
  origin: string;
  counts: BillingCounts;
  logger?: BillingLogger;
}

/**
 * Bills the memberships as of `now`: the "first charge tomorrow" reminders, the fees that fall due
 * (an invoice per period, created once), their charges and retries, and the ends of periods and
 * graces. Every step is a short transaction of its own that first takes the billing advisory lock:
 * if another run holds it, this one stops and leaves the work to that one. Rows are taken with
 * `SKIP LOCKED`, and each charge carries the invoice's idempotency key and attempt number, so that
 * neither a crash nor a second instance charges an invoice twice. Running it again at the same
 * `now` finds nothing more to do.
 */
export async function runBilling(
  db: Database,
  gateway: CardFormGateway,
  { now, origin, logger }: { now: Date; origin: string; logger?: BillingLogger },
): Promise<BillingOutcome> {
  const context: BillingContext = { db, gateway, now, origin, logger, counts: { ...NO_BILLING_COUNTS } };
  try {
    await inBatches(context, sendTrialReminders);
    await inBatches(context, closeEndedPeriods);
    await chargeDueInvoices(context);
    await inBatches(context, endUnpaidMemberships);
    return { ran: true, counts: context.counts };
  } catch (error) {
    if (error instanceof LockTaken) return { ran: false, counts: context.counts };
    throw error;
  }
}

/** One step's transaction, under the billing lock. */
function locked<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const lock = (await tx.execute(sql`select pg_try_advisory_xact_lock(${BILLING_LOCK_ID}) as locked`)) as {
      rows: { locked: boolean }[];
    };
    if (!lock.rows[0]?.locked) throw new LockTaken();
    return work(tx);
  });
}

/** Repeats a step's batch until it handles fewer rows than a full batch. */
async function inBatches(context: BillingContext, step: (tx: Database, context: BillingContext) => Promise<number>) {
  for (;;) {
    const handled = await locked(context.db, (tx) => step(tx, context));
    if (handled < BATCH_SIZE) return;
  }
}

async function sendTrialReminders(tx: Database, { now, origin, counts }: BillingContext) {
  const due = await tx
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.status, "trialing"),
        eq(memberships.cancelAtPeriodEnd, false),
        isNull(memberships.trialReminderSentAt),
        gt(memberships.currentPeriodEnd, now),
        lte(memberships.currentPeriodEnd, addHours(now, MEMBERSHIP_TERMS.trialReminderHours)),
      ),
    )
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  for (const membership of due) {
    if (membership.email) {
      await enqueueMail(
        tx,
        await firstChargeComingMail({
          ...mailBasics(membership, origin),
          chargeOn: membership.currentPeriodEnd,
          cardBrand: membership.cardBrand,
          cardLast4: membership.cardLast4,
        }),
      );
    }
    await tx.update(memberships).set({ trialReminderSentAt: now }).where(eq(memberships.id, membership.id));
    counts.trialReminders++;
  }
  return due.length;
}

/**
 * A period (or the trial) that has ended either ends the membership, if it was cancelled for then,
 * or opens the next period with its invoice. The membership moves to the new period at once; the
 * invoice's charge decides whether it stays in good standing.
 */
async function closeEndedPeriods(tx: Database, { now, counts }: BillingContext) {
  const ended = await tx
    .select()
    .from(memberships)
    .where(
      and(
        inArray(memberships.status, RECURRING_MEMBERSHIP_STATUSES),
        lte(memberships.currentPeriodEnd, now),
        // Stripe bills its subscriptions itself; our rows follow its webhooks.
        isNull(memberships.providerSubscriptionRef),
      ),
    )
    .orderBy(asc(memberships.currentPeriodEnd))
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  for (const membership of ended) {
    if (membership.cancelAtPeriodEnd) {
      await changeMembership(tx, {
        membershipId: membership.id,
        to: "canceled",
        actor: SYSTEM_ACTOR,
        note: "Fin de la période payée : résiliation effective",
        changes: { endedAt: membership.currentPeriodEnd },
      });
      counts.canceledAtPeriodEnd++;
      continue;
    }
    const periodStart = membership.currentPeriodEnd;
    const periodEnd = addMonths(periodStart, MEMBERSHIP_TERMS.periodMonths);
    const created = await tx
      .insert(invoices)
      .values({
        membershipId: membership.id,
        periodStart,
        periodEnd,
        amount: membership.price,
        currency: membership.currency,
        nextAttemptAt: periodStart,
        idempotencyKey: randomUUID(),
      })
      .onConflictDoNothing()
      .returning({ id: invoices.id });
    counts.invoicesCreated += created.length;
    await tx
      .update(memberships)
      .set({ currentPeriodStart: periodStart, currentPeriodEnd: periodEnd })
      .where(eq(memberships.id, membership.id));
  }
  return ended.length;
}

/** Charges the open invoices that are due, one transaction each, so that every charge is kept as it happens. */
async function chargeDueInvoices(context: BillingContext) {
  // Invoices left to the next run: the gateway did not answer, or a cancellation had the membership.
  const skipped: string[] = [];
  for (;;) {
    const outcome = await locked(context.db, async (tx) => {
      const [invoice] = await tx
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.status, "open"),
            lte(invoices.nextAttemptAt, context.now),
            skipped.length > 0 ? notInArray(invoices.id, skipped) : undefined,
          ),
        )
        .orderBy(asc(invoices.nextAttemptAt))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!invoice) return "done";
      try {
        const handled = await tx.transaction((attempt) => chargeInvoice(attempt, context, invoice));
        if (!handled) skipped.push(invoice.id);
      } catch (error) {
        // The gateway did not answer: nothing is recorded, and the same key is used next run.
        context.counts.gatewayErrors++;
        skipped.push(invoice.id);
        context.logger?.warn({ err: error, invoiceId: invoice.id }, "billing: the gateway did not answer");
      }
      return "more";
    });
    if (outcome === "done") return;
  }
}

/**
 * Charges `invoice` (whose row the caller has locked) and records the outcome. Returns false, doing
 * nothing, when the membership is locked: a cancellation holding it may be about to void this
 * invoice, and waiting for it while holding the invoice would deadlock with that cancellation.
 */
async function chargeInvoice(
  tx: Database,
  { gateway, now, origin, counts }: BillingContext,
  invoice: typeof invoices.$inferSelect,
): Promise<boolean> {
  const [membership] = await tx
    .select()
    .from(memberships)
    .where(eq(memberships.id, invoice.membershipId))
    .for("update", { skipLocked: true });
  if (!membership) return false;
  if (membership.status === "canceled" || membership.status === "ended") {
    await tx.update(invoices).set({ status: "void", nextAttemptAt: null }).where(eq(invoices.id, invoice.id));
    return true;
  }
  const attempt = invoice.attempts + 1;
  const result = await gateway.chargeSaved({
    paymentMethodRef: membership.paymentMethodRef,
    amount: invoice.amount,
    currency: invoice.currency,
    idempotencyKey: `${invoice.idempotencyKey}:${attempt}`,
  });
  if (result.outcome === "succeeded") {
    await recordFeePaid(tx, {
      membership,
      invoice,
      attempts: attempt,
      chargeRef: result.providerRef,
      paidAt: now,
      note: `${gateway.name} ${result.providerRef}`,
      origin,
    });
    counts.charged++;
    return true;
  }
  counts.declined++;
  await recordFeeDeclined(tx, {
    membership,
    invoice,
    attempts: attempt,
    outcome: result.outcome,
    now,
    // Retried every few days while the grace lasts; the membership ends then.
    nextAttempt: (graceEndsAt) => {
      const retryAt = addDays(now, MEMBERSHIP_TERMS.retryEveryDays);
      return retryAt < graceEndsAt ? retryAt : null;
    },
    origin,
  });
  return true;
}

async function endUnpaidMemberships(tx: Database, { now, origin, counts }: BillingContext) {
  const expired = await tx
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.status, "past_due"),
        lte(memberships.graceEndsAt, now),
        isNull(memberships.providerSubscriptionRef),
      ),
    )
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  for (const membership of expired) {
    await changeMembership(tx, {
      membershipId: membership.id,
      to: "ended",
      actor: SYSTEM_ACTOR,
      note: `Cotisation impayée ${MEMBERSHIP_TERMS.reminderGraceDays} jours après le rappel`,
      changes: { endedAt: now },
    });
    const unpaid = await tx
      .update(invoices)
      .set({ status: "uncollectible", nextAttemptAt: null })
      .where(and(eq(invoices.membershipId, membership.id), eq(invoices.status, "open")))
      .returning({ amount: invoices.amount });
    if (membership.email) {
      await enqueueMail(
        tx,
        await membershipEndedMail({
          ...mailBasics(membership, origin),
          amount: unpaid[0]?.amount ?? membership.price,
          endedOn: now,
        }),
      );
    }
    counts.endedUnpaid++;
  }
  return expired.length;
}

/** Runs the job now and logs what it did (counts only). Never throws: a failed run is logged. */
export async function runBillingAndLog(
  db: Database,
  gateway: CardFormGateway,
  { origin, logger, now = new Date() }: { origin: string; logger: BillingLogger; now?: Date },
) {
  const started = Date.now();
  try {
    const outcome = await runBilling(db, gateway, { now, origin, logger });
    if (outcome.ran) logger.info({ ...outcome.counts, durationMs: Date.now() - started }, "billing run");
    else logger.info({ ...outcome.counts }, "billing run stopped: another instance is running it");
  } catch (error) {
    logger.error({ err: error }, "billing run failed");
  }
}

/** Runs the job `firstRunDelayMs` after boot, then every `intervalMs`. */
export function scheduleBilling(
  db: Database,
  gateway: CardFormGateway,
  options: { intervalMs: number; firstRunDelayMs: number; origin: string; logger: BillingLogger },
): JobSchedule {
  return scheduleJob(() => runBillingAndLog(db, gateway, options), options);
}
