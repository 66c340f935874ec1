import { randomUUID } from "node:crypto";
import { addDays, addHours } from "date-fns";
import { and, asc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { invoices, memberships } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { countRenewals, recordJobRun } from "~/features/observability/metrics.server";
import type { CardFormGateway } from "~/features/payments/gateway";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { eventLoopShare, type EventLoopShare } from "~/lib/event-loop-share.server";
import { recordedRun } from "~/lib/job-runs.server";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";
import { billingPeriodAfter } from "./billing-periods";
import { firstChargeComingMail, membershipEndedMail } from "./membership-mails";
import { changeMembership, changeMemberships } from "./membership-status.server";
import { mailBasics, recordFeeDeclined, recordFeesPaid, type PaidFee } from "./fee-outcomes.server";
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
  /** This run's turns on the event loop, which it shares with the requests. */
  share: EventLoopShare;
}

/**
 * Bills the memberships as of `now`: the "first charge tomorrow" reminders, the fees that fall due
 * (an invoice per period, created once), their charges and retries, and the ends of periods and
 * graces. Every step is a short transaction of its own that first takes the billing advisory lock:
 * if another run holds it, this one stops and leaves the work to that one. Rows are taken with
 * `SKIP LOCKED`, and each charge carries the invoice's idempotency key and attempt number, so that
 * neither a crash nor a second instance charges an invoice twice (ADR 016). Running it again at the same
 * `now` finds nothing more to do. Every run is recorded for the back office's system page.
 */
export function runBilling(
  db: Database,
  gateway: CardFormGateway,
  options: { now: Date; origin: string; logger?: BillingLogger },
): Promise<BillingOutcome> {
  return recordedRun(
    db,
    "billing",
    () => billingSteps(db, gateway, options),
    // A run that stopped for another one may have done some steps first: its counts say which.
    ({ ran, counts }) => ({ outcome: ran ? "done" : "skipped", counts: { ...counts } }),
  );
}

async function billingSteps(
  db: Database,
  gateway: CardFormGateway,
  { now, origin, logger }: { now: Date; origin: string; logger?: BillingLogger },
): Promise<BillingOutcome> {
  const context: BillingContext = {
    db,
    gateway,
    now,
    origin,
    logger,
    counts: { ...NO_BILLING_COUNTS },
    share: eventLoopShare(),
  };
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
 * invoice's charge decides whether it stays in good standing. The batch's invoices and periods are
 * written with one statement each.
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
  const cancelled = ended.filter((membership) => membership.cancelAtPeriodEnd);
  await changeMemberships(
    tx,
    cancelled.map((membership) => ({
      membershipId: membership.id,
      to: "canceled",
      actor: SYSTEM_ACTOR,
      note: "Fin de la période payée : résiliation effective",
      changes: { endedAt: membership.currentPeriodEnd },
    })),
  );
  counts.canceledAtPeriodEnd += cancelled.length;
  const renewed = ended
    .filter((membership) => !membership.cancelAtPeriodEnd)
    .map((membership) => ({
      membership,
      ...billingPeriodAfter(membership.billingAnchor, membership.currentPeriodEnd),
    }));
  if (renewed.length === 0) return ended.length;
  const created = await tx
    .insert(invoices)
    .values(
      renewed.map(({ membership, start, end }) => ({
        membershipId: membership.id,
        periodStart: start,
        periodEnd: end,
        amount: membership.price,
        currency: membership.currency,
        nextAttemptAt: start,
        idempotencyKey: randomUUID(),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: invoices.id });
  counts.invoicesCreated += created.length;
  await tx.execute(sql`
    update ${memberships} set current_period_start = next.period_start, current_period_end = next.period_end,
      updated_at = now()
    from unnest(${sql.param(renewed.map(({ membership }) => membership.id))}::uuid[],
                ${sql.param(renewed.map(({ start }) => start.toISOString()))}::timestamptz[],
                ${sql.param(renewed.map(({ end }) => end.toISOString()))}::timestamptz[])
      as next(id, period_start, period_end)
    where ${memberships.id} = next.id`);
  return ended.length;
}

/**
 * Charges the open invoices that are due, a batch per transaction: its invoices and their
 * memberships are locked, charged one after the other, and the outcomes written together when the
 * batch commits. A crash before the commit loses the batch's outcomes, not its charges: the next run
 * charges the same invoices with the same attempt numbers, so the same idempotency keys, and the
 * gateway answers with its first result.
 */
async function chargeDueInvoices(context: BillingContext) {
  // Invoices left to the next run: the gateway did not answer, or a cancellation had the membership.
  const skipped: string[] = [];
  for (;;) {
    const handled = await locked(context.db, async (tx) => {
      const due = await tx
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.status, "open"),
            lte(invoices.nextAttemptAt, context.now),
            // One parameter however many: a list of them stops at PostgreSQL's 65,535.
            skipped.length > 0 ? sql`${invoices.id} <> all(${sql.param(skipped)}::uuid[])` : undefined,
          ),
        )
        .orderBy(asc(invoices.nextAttemptAt))
        .limit(BATCH_SIZE)
        .for("update", { skipLocked: true });
      if (due.length === 0) return 0;
      await chargeInvoices(tx, context, due, skipped);
      return due.length;
    });
    if (handled === 0) return;
  }
}

/**
 * Charges `due` (whose rows the caller has locked) and records the outcomes. An invoice whose
 * membership is locked is left to the next run: a cancellation holding it may be about to void the
 * invoice, and waiting for it while holding the invoice would deadlock with that cancellation.
 */
async function chargeInvoices(
  tx: Database,
  { gateway, now, origin, counts, logger, share }: BillingContext,
  due: (typeof invoices.$inferSelect)[],
  skipped: string[],
) {
  const held = await tx
    .select()
    .from(memberships)
    .where(inArray(memberships.id, [...new Set(due.map((invoice) => invoice.membershipId))]))
    .for("update", { skipLocked: true });
  const membershipOf = new Map(held.map((membership) => [membership.id, membership]));
  const charged = new Set<string>();
  const voided: string[] = [];
  const paid: PaidFee[] = [];
  for (const invoice of due) {
    await share.pause();
    const membership = membershipOf.get(invoice.membershipId);
    if (!membership) {
      skipped.push(invoice.id);
      continue;
    }
    // A membership's outcomes are written once per batch: its other open invoice waits for the next.
    if (charged.has(membership.id)) continue;
    charged.add(membership.id);
    if (membership.status === "canceled" || membership.status === "ended") {
      voided.push(invoice.id);
      continue;
    }
    const attempt = invoice.attempts + 1;
    let result;
    try {
      result = await gateway.chargeSaved({
        paymentMethodRef: membership.paymentMethodRef,
        amount: invoice.amount,
        currency: invoice.currency,
        idempotencyKey: `${invoice.idempotencyKey}:${attempt}`,
      });
    } catch (error) {
      // The gateway did not answer: nothing is recorded, and the same key is used next run.
      counts.gatewayErrors++;
      skipped.push(invoice.id);
      logger?.warn({ err: error, invoiceId: invoice.id }, "billing: the gateway did not answer");
      continue;
    }
    if (result.outcome === "succeeded") {
      paid.push({
        membership,
        invoice,
        attempts: attempt,
        chargeRef: result.providerRef,
        paidAt: now,
        note: `${gateway.name} ${result.providerRef}`,
      });
      counts.charged++;
      continue;
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
  }
  if (voided.length > 0) {
    await tx.update(invoices).set({ status: "void", nextAttemptAt: null }).where(inArray(invoices.id, voided));
  }
  await recordFeesPaid(tx, paid, origin, share);
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
    const { charged, declined, gatewayErrors } = outcome.counts;
    countRenewals({ paid: charged, declined, gatewayErrors });
    recordJobRun("billing", outcome.ran ? "done" : "skipped", started);
    if (outcome.ran) logger.info({ ...outcome.counts, durationMs: Date.now() - started }, "billing run");
    else logger.info({ ...outcome.counts }, "billing run stopped: another instance is running it");
  } catch (error) {
    recordJobRun("billing", "failed", started);
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
