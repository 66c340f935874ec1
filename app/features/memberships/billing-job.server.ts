import { randomUUID } from "node:crypto";
import { addDays, addHours } from "date-fns";
import { and, asc, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { invoices, memberships } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { countRenewals, recordJobRun } from "~/platform/observability/metrics.server";
import type { CardFormGateway, SavedCardChargeResult } from "~/features/payments/gateway";
import { finishRefund, reserveRefund } from "~/features/payments/refunds.server";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { eventLoopShare, type EventLoopShare } from "~/lib/event-loop-share.server";
import { recordedRun } from "~/lib/job-runs.server";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";
import { billingPeriodAfter } from "./billing-periods";
import { firstChargeComingMail, membershipEndedMail } from "./membership-mails";
import { invoiceRefunds } from "./invoice-refund.server";
import { changeMembership, changeMemberships, type Membership } from "./membership-status.server";
import {
  AUTHENTICATION_REQUIRED,
  mailBasics,
  recordFeeDeclined,
  recordFeesPaid,
  type PaidFee,
} from "./fee-outcomes.server";
import { RECURRING_MEMBERSHIP_STATUSES, isLiveMembership } from "./membership-status";
import { scheduledPlanNote } from "./plan-change";
import { finishPlanChanges } from "./plan-change.server";
import { planFee } from "./trial-offer";
import { MEMBERSHIP_TERMS } from "./membership-terms";

/** What a run did. Counts only: never who. */
export interface BillingCounts {
  trialReminders: number;
  invoicesCreated: number;
  charged: number;
  declined: number;
  cancelledAtPeriodEnd: number;
  endedUnpaid: number;
  /** Attempts the gateway failed to answer (a network error): they are tried again on the next run. */
  gatewayErrors: number;
  /** Plan changes whose request died before the card's answer was recorded, finished by this run. */
  planChangesFinished: number;
}

export const NO_BILLING_COUNTS: Readonly<BillingCounts> = {
  trialReminders: 0,
  invoicesCreated: 0,
  charged: 0,
  declined: 0,
  cancelledAtPeriodEnd: 0,
  endedUnpaid: 0,
  gatewayErrors: 0,
  planChangesFinished: 0,
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
  /** The member asked for the charge and is there for the bank's check ("Pay now"), unlike a run. */
  customerPresent?: boolean;
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
    // Before the periods close: an upgrade paid for the ending quarter is billed at its plan's fee.
    const planChanges = await finishPlanChanges(db, gateway, { now, leaseMs: CHARGING_LEASE_MS, origin });
    context.counts.planChangesFinished = planChanges.finished;
    context.counts.gatewayErrors += planChanges.unanswered;
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
      to: "cancelled",
      actor: SYSTEM_ACTOR,
      note: "Fin de la période payée : résiliation effective",
      changes: { endedAt: membership.currentPeriodEnd },
    })),
  );
  counts.cancelledAtPeriodEnd += cancelled.length;
  const renewed = ended
    .filter((membership) => !membership.cancelAtPeriodEnd)
    .map((membership) => ({
      membership,
      ...billingPeriodAfter(membership.billingAnchor, membership.currentPeriodEnd),
    }));
  if (renewed.length === 0) return ended.length;
  // A move to a cheaper plan asked for during the quarter is made now: the new quarter is billed at its fee (ADR 030).
  const moving = renewed.filter(({ membership }) => membership.scheduledPlan !== null);
  await changeMemberships(
    tx,
    moving.map(({ membership }) => ({
      membershipId: membership.id,
      to: membership.status,
      actor: SYSTEM_ACTOR,
      note: scheduledPlanNote(membership.plan, membership.scheduledPlan!),
      changes: { plan: membership.scheduledPlan!, price: planFee(membership.scheduledPlan!), scheduledPlan: null },
    })),
  );
  const created = await tx
    .insert(invoices)
    .values(
      renewed.map(({ membership, start, end }) => ({
        membershipId: membership.id,
        periodStart: start,
        periodEnd: end,
        amount: membership.scheduledPlan ? planFee(membership.scheduledPlan) : membership.price,
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

type Invoice = typeof invoices.$inferSelect;

/**
 * How long, on the job's clock, an invoice taken to be charged is left to the run that took it:
 * longer than any batch's charges. A run that died leaves its batch to the first run after that.
 */
export const CHARGING_LEASE_MS = 10 * 60_000;

/** An invoice taken to be charged (its `chargingSince` is the run's `now`), and its attempt's number. */
interface Taken {
  invoice: Invoice;
  membership: Membership;
  attempt: number;
}

type Answer = { taken: Taken; result: SavedCardChargeResult | null };

/**
 * Charges the open invoices that are due, a batch at a time, in three steps, so that no
 * transaction waits on the gateway (ADR 016): a transaction takes the batch (`chargingSince`), the
 * gateway is asked for each outside any transaction under the invoice's key and attempt number,
 * and a transaction records the answers. A run that dies after taking a batch leaves the lease to
 * run out; the next run asks again under the same keys, and the gateway answers with its first
 * result. An invoice a cancellation voided while its charge was on its way, and whose charge
 * succeeded, is recorded paid and refunded in full.
 */
async function chargeDueInvoices(context: BillingContext) {
  // Invoices left to the next run: the gateway did not answer, or a cancellation had the membership.
  const skipped: string[] = [];
  for (;;) {
    const taken = await locked(context.db, (tx) => takeDueInvoices(tx, context, skipped));
    if (taken === null) return;
    await chargeAndRecord(context, taken, skipped);
  }
}

/** The second and third steps for invoices taken: ask the gateway for each, then record the answers. */
async function chargeAndRecord(context: BillingContext, taken: Taken[], skipped: string[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const one of taken) {
    await context.share.pause();
    answers.push({ taken: one, result: await chargeTaken(one, context, skipped) });
  }
  // Not under the billing lock: a run that took the lock meanwhile finds these invoices taken.
  const refunds = await context.db.transaction((tx) => recordAnswers(tx, context, answers));
  for (const refundId of refunds) {
    await finishRefund(context.db, context.gateway, invoiceRefunds, refundId).catch((error: unknown) =>
      context.logger?.warn({ err: error, refundId }, "billing: a refund of a fee charged too late waits"),
    );
  }
  return answers;
}

/** What "Pay now" did with a past-due membership's open fee. */
export type FeeChargedNow =
  | { kind: "paid" }
  | { kind: "declined"; message: string }
  /** The gateway did not answer: nothing was recorded, and the next try asks under the same key. */
  | { kind: "unreachable" }
  /** A billing run, or another press of the button, is charging it right now. */
  | { kind: "busy" }
  | { kind: "nothing-due" };

/**
 * Charges a past-due membership's open fee at once, with the card on file, at the member's request:
 * the billing job's three steps for that one invoice, under the same lock, lease, key and attempt
 * number, so that the job and the member never charge it twice. Paid, the membership is active again
 * and the member gets the receipt; declined, the grace period and the job's retries go on as before.
 */
export async function chargeFeeNow(
  db: Database,
  gateway: CardFormGateway,
  { membershipId, now, origin }: { membershipId: string; now: Date; origin: string },
): Promise<FeeChargedNow> {
  const context: BillingContext = {
    db,
    gateway,
    now,
    origin,
    counts: { ...NO_BILLING_COUNTS },
    share: eventLoopShare(),
    customerPresent: true,
  };
  let taken: Taken | "busy" | null;
  try {
    taken = await locked(db, (tx) => takeOpenFee(tx, membershipId, now));
  } catch (error) {
    if (error instanceof LockTaken) return { kind: "busy" };
    throw error;
  }
  if (taken === null || taken === "busy") return { kind: taken ?? "nothing-due" };
  const [answer] = await chargeAndRecord(context, [taken], []);
  const result = answer?.result;
  if (!result) return { kind: "unreachable" };
  return result.outcome === "succeeded" ? { kind: "paid" } : { kind: "declined", message: result.message };
}

/** Takes a past-due membership's open fee to charge it now, as `takeDueInvoices` takes a due one. */
async function takeOpenFee(tx: Database, membershipId: string, now: Date): Promise<Taken | "busy" | null> {
  const [membership] = await tx.select().from(memberships).where(eq(memberships.id, membershipId)).for("update");
  if (membership?.status !== "past_due") return null;
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.membershipId, membershipId), eq(invoices.status, "open")))
    .orderBy(asc(invoices.periodStart))
    .limit(1)
    .for("update");
  if (!invoice) return null;
  if (invoice.chargingSince && invoice.chargingSince.getTime() > now.getTime() - CHARGING_LEASE_MS) return "busy";
  await tx.update(invoices).set({ chargingSince: now }).where(eq(invoices.id, invoice.id));
  return { invoice, membership, attempt: invoice.attempts + 1 };
}

/**
 * Takes a batch of due invoices (and those a dead run left taken) with their memberships, skipping
 * rows other transactions hold: an invoice whose membership is held is left to the next run, as a
 * cancellation holding it may be about to void the invoice. Voids the invoices of memberships that
 * ended. Returns null when there is nothing left to look at.
 */
async function takeDueInvoices(tx: Database, { now }: BillingContext, skipped: string[]): Promise<Taken[] | null> {
  const leaseOver = lt(invoices.chargingSince, new Date(now.getTime() - CHARGING_LEASE_MS));
  // One parameter however many: a list of them stops at PostgreSQL's 65,535.
  const notSkipped = skipped.length > 0 ? sql`${invoices.id} <> all(${sql.param(skipped)}::uuid[])` : undefined;
  // Voided or ended while a dead run's charge was on its way: its answer is still owed. Rare, and
  // asked apart, so that the due invoices come in their index's order without a sort.
  const orphaned = await tx
    .select()
    .from(invoices)
    .where(and(ne(invoices.status, "open"), leaseOver, notSkipped))
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  const due =
    orphaned.length < BATCH_SIZE
      ? await tx
          .select()
          .from(invoices)
          .where(
            and(
              eq(invoices.status, "open"),
              lte(invoices.nextAttemptAt, now),
              or(isNull(invoices.chargingSince), leaseOver),
              notSkipped,
            ),
          )
          .orderBy(asc(invoices.nextAttemptAt))
          .limit(BATCH_SIZE - orphaned.length)
          .for("update", { skipLocked: true })
      : [];
  due.push(...orphaned);
  if (due.length === 0) return null;
  const held = await tx
    .select()
    .from(memberships)
    .where(inArray(memberships.id, [...new Set(due.map((invoice) => invoice.membershipId))]))
    .for("update", { skipLocked: true });
  const membershipOf = new Map(held.map((membership) => [membership.id, membership]));
  const taken: Taken[] = [];
  const chosen = new Set<string>();
  const voided: string[] = [];
  for (const invoice of due) {
    const membership = membershipOf.get(invoice.membershipId);
    if (!membership) {
      skipped.push(invoice.id);
      continue;
    }
    // A membership's answers are recorded once per batch: its other invoice waits for the next.
    if (chosen.has(membership.id)) continue;
    chosen.add(membership.id);
    // Ended with its fee unpaid: the fee goes, unless a dead run's charge of it may have gone through.
    if (invoice.status === "open" && !isLiveMembership(membership.status) && !invoice.chargingSince) {
      voided.push(invoice.id);
      continue;
    }
    taken.push({ invoice, membership, attempt: invoice.attempts + 1 });
  }
  await voidInvoices(tx, voided);
  if (taken.length > 0) {
    await tx
      .update(invoices)
      .set({ chargingSince: now })
      .where(
        inArray(
          invoices.id,
          taken.map(({ invoice }) => invoice.id),
        ),
      );
  }
  return taken;
}

/** The fees of memberships that ended unpaid: never charged. */
async function voidInvoices(tx: Database, ids: string[]) {
  if (ids.length === 0) return;
  await tx.update(invoices).set({ status: "void", nextAttemptAt: null }).where(inArray(invoices.id, ids));
}

/** Asks the gateway for one taken invoice's attempt; null when it did not answer. */
async function chargeTaken(
  { invoice, membership, attempt }: Taken,
  { gateway, counts, logger, customerPresent }: BillingContext,
  skipped: string[],
): Promise<SavedCardChargeResult | null> {
  try {
    return await gateway.chargeSaved({
      paymentMethodRef: membership.paymentMethodRef,
      customerPresent,
      amount: invoice.amount,
      currency: invoice.currency,
      idempotencyKey: `${invoice.idempotencyKey}:${attempt}`,
    });
  } catch (error) {
    // The gateway did not answer: nothing is recorded, and the same key is used next run.
    counts.gatewayErrors++;
    skipped.push(invoice.id);
    logger?.warn({ err: error, invoiceId: invoice.id }, "billing: the gateway did not answer");
    return null;
  }
}

/**
 * Records the gateway's answers, with the memberships and then the invoices locked again (the
 * order a cancellation takes them in): an invoice still taken by this run and still open is paid
 * or declined as the answer says; one that stopped being owed meanwhile (a cancellation voided it)
 * and was charged is recorded paid and refunded in full. Returns the refunds to finish after the
 * commit.
 */
async function recordAnswers(tx: Database, { gateway, now, origin, counts, share }: BillingContext, answers: Answer[]) {
  if (answers.length === 0) return [];
  const membershipIds = [...new Set(answers.map(({ taken }) => taken.membership.id))];
  const held = await tx.select().from(memberships).where(inArray(memberships.id, membershipIds)).for("update");
  const current = await tx
    .select()
    .from(invoices)
    .where(
      inArray(
        invoices.id,
        answers.map(({ taken }) => taken.invoice.id),
      ),
    )
    .for("update");
  const membershipOf = new Map(held.map((membership) => [membership.id, membership]));
  const invoiceOf = new Map(current.map((invoice) => [invoice.id, invoice]));
  const paid: PaidFee[] = [];
  const refunds: string[] = [];
  const released: string[] = [];
  const voided: string[] = [];
  for (const { taken, result } of answers) {
    const invoice = invoiceOf.get(taken.invoice.id);
    const membership = membershipOf.get(taken.membership.id);
    // Taken again by a later run since (this one outlived its lease): that run records it.
    if (!invoice || !membership || invoice.chargingSince?.getTime() !== now.getTime()) continue;
    released.push(invoice.id);
    if (!result) continue;
    if (invoice.status !== "open" || !isLiveMembership(membership.status)) {
      if (result.outcome === "succeeded") refunds.push(await refundLateCharge(tx, invoice, taken.attempt, result, now));
      else if (invoice.status === "open") voided.push(invoice.id);
      continue;
    }
    if (result.outcome === "succeeded") {
      paid.push({
        membership,
        invoice,
        attempts: taken.attempt,
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
      attempts: taken.attempt,
      outcome: result.outcome,
      now,
      // Retried every few days while the grace lasts; the membership ends then. A fee the bank
      // holds for its card holder is not: only the member can let it through, on the account.
      nextAttempt: (graceEndsAt) => {
        const retryAt = addDays(now, MEMBERSHIP_TERMS.retryEveryDays);
        return retryAt < graceEndsAt && result.outcome !== AUTHENTICATION_REQUIRED ? retryAt : null;
      },
      origin,
    });
  }
  if (released.length > 0) {
    await tx.update(invoices).set({ chargingSince: null }).where(inArray(invoices.id, released));
  }
  await voidInvoices(tx, voided);
  await recordFeesPaid(tx, paid, origin, share);
  return refunds;
}

/**
 * A fee charged after it stopped being owed (the membership was cancelled while the charge was on
 * its way): the invoice records the charge, and all of it is given back.
 */
async function refundLateCharge(
  tx: Database,
  invoice: Invoice,
  attempt: number,
  result: SavedCardChargeResult,
  now: Date,
): Promise<string> {
  await tx
    .update(invoices)
    .set({ status: "paid", attempts: attempt, providerRef: result.providerRef, lastOutcome: "succeeded", paidAt: now })
    .where(eq(invoices.id, invoice.id));
  const reserved = await reserveRefund(tx, invoiceRefunds, {
    target: { invoiceId: invoice.id },
    amount: invoice.amount,
    reason: "Cotisation prélevée pendant la résiliation : remboursée en entier",
    idempotencyKey: `${invoice.idempotencyKey}:${attempt}:refund`,
    actor: SYSTEM_ACTOR,
  });
  if (reserved?.kind !== "reserved") throw new Error("A fee charged too late could not be refunded");
  return reserved.refundId;
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
