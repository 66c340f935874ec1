import { subHours, subYears } from "date-fns";
import { and, eq, gte, inArray, isNull, lt, not, notExists, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import {
  contactMessages,
  customers,
  memberships,
  orders,
  rateLimit,
  unsubscribeRequests,
  withdrawals,
} from "~/db/schema";
import { LIVE_MEMBERSHIP_STATUSES } from "~/features/memberships/membership-status";
import { recordJobRun } from "~/platform/observability/metrics.server";
import {
  deleteCustomersWithoutOrders,
  deleteUnpaidOrders,
  eraseCustomers,
  isAnonymisedCustomer,
} from "./customer-removal.server";
import { RETENTION } from "./retention";
import { recordedRun } from "~/lib/job-runs.server";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";

/** Which rows each rule reaches: everything created (or, for customers, last ordering) before these instants. */
export interface RetentionCutoffs {
  unpaidOrders: Date;
  customerData: Date;
  contactMessages: Date;
  unsubscribeRequests: Date;
  rateLimitCounters: Date;
}

/** The cutoffs at `now`, from the same RETENTION constant the privacy policy words its periods from. */
export function retentionCutoffs(now: Date): RetentionCutoffs {
  return {
    unpaidOrders: subHours(now, RETENTION.unpaidOrderHours),
    customerData: subYears(now, RETENTION.customerDataYears),
    contactMessages: subYears(now, RETENTION.contactMessageYears),
    unsubscribeRequests: subYears(now, RETENTION.unsubscribeRequestYears),
    rateLimitCounters: subHours(now, RETENTION.rateLimitCounterHours),
  };
}

/** How many rows a run removed (or, in a dry run, would remove). Counts only: never who. */
export interface RetentionCounts {
  unpaidOrders: number;
  orderEvents: number;
  paymentAttempts: number;
  customersDeleted: number;
  customersAnonymised: number;
  contactMessages: number;
  unsubscribeRequests: number;
  /** Withdrawal statements, kept as long as the customer data they concern. */
  withdrawals: number;
  rateLimitCounters: number;
}

export const NO_RETENTION_COUNTS: Readonly<RetentionCounts> = {
  unpaidOrders: 0,
  orderEvents: 0,
  paymentAttempts: 0,
  customersDeleted: 0,
  customersAnonymised: 0,
  contactMessages: 0,
  unsubscribeRequests: 0,
  withdrawals: 0,
  rateLimitCounters: 0,
};

export type RetentionOutcome =
  | { ran: true; dryRun: boolean; counts: RetentionCounts }
  /** Another run (another instance, or the CLI) held the lock: this one did nothing. */
  | { ran: false };

// Any fixed number works; it only has to be the same for every instance and differ from the migrations' lock.
export const RETENTION_LOCK_ID = 727_002;
/** Rows handled per statement, so that a big backlog never builds one giant parameter list. */
const BATCH_SIZE = 500;

class DryRunRollback extends Error {
  constructor(readonly counts: RetentionCounts) {
    super("dry run: rolled back");
  }
}

/**
 * Applies the retention periods as of `now`, in one transaction. A dry run does exactly the same
 * work and then rolls it back, so its counts are the ones a real run would report. One run at a
 * time: the transaction first takes a PostgreSQL advisory lock and gives up (`ran: false`) if
 * another run holds it. Running it again finds nothing more to do. Every run but a dry one is
 * recorded for the back office's system page.
 */
export async function runRetention(
  db: Database,
  { now, dryRun = false }: { now: Date; dryRun?: boolean },
): Promise<RetentionOutcome> {
  if (dryRun) return retentionTransaction(db, { now, dryRun });
  return recordedRun(
    db,
    "retention",
    () => retentionTransaction(db, { now, dryRun }),
    (outcome) =>
      outcome.ran ? { outcome: "done", counts: { ...outcome.counts } } : { outcome: "skipped", counts: {} },
  );
}

async function retentionTransaction(
  db: Database,
  { now, dryRun }: { now: Date; dryRun: boolean },
): Promise<RetentionOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const lock = (await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_ID}) as locked`)) as {
        rows: { locked: boolean }[];
      };
      if (!lock.rows[0]?.locked) return { ran: false };
      const counts = await applyRetention(tx, retentionCutoffs(now));
      if (dryRun) throw new DryRunRollback(counts);
      return { ran: true, dryRun: false, counts };
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return { ran: true, dryRun: true, counts: error.counts };
    throw error;
  }
}

async function applyRetention(db: Database, cutoffs: RetentionCutoffs): Promise<RetentionCounts> {
  const counts = { ...NO_RETENTION_COUNTS };
  const add = (more: Partial<RetentionCounts>) => {
    for (const [key, value] of Object.entries(more)) counts[key as keyof RetentionCounts] += value;
  };

  // Unpaid orders past their 48 hours. An order being paid this very moment is locked by the
  // payment: skip it; if the payment fails it goes on the next run.
  for (;;) {
    const stale = await db
      .select({ id: orders.id, customerId: orders.customerId })
      .from(orders)
      .where(and(eq(orders.status, "not_paid"), lt(orders.createdAt, cutoffs.unpaidOrders)))
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    if (stale.length === 0) break;
    const removed = await deleteUnpaidOrders(
      db,
      stale.map((order) => order.id),
    );
    add({ unpaidOrders: removed.orders, orderEvents: removed.orderEvents, paymentAttempts: removed.paymentAttempts });
    add({
      customersDeleted: await deleteCustomersWithoutOrders(db, [...new Set(stale.map((order) => order.customerId))]),
    });
    if (stale.length < BATCH_SIZE) break;
  }

  // Customers whose last order (its last change) is older than the customer-data period, and whose
  // membership, if any, ended before it too: a member's data is needed while they are a member.
  for (;;) {
    const expired = await db
      .select({ id: customers.id })
      .from(customers)
      .where(
        and(
          lt(customers.createdAt, cutoffs.customerData),
          not(isAnonymisedCustomer),
          notExists(
            db
              .select({ one: sql`1` })
              .from(orders)
              .where(and(eq(orders.customerId, customers.id), gte(orders.updatedAt, cutoffs.customerData))),
          ),
          notExists(
            db
              .select({ one: sql`1` })
              .from(memberships)
              .where(
                and(
                  eq(memberships.customerId, customers.id),
                  or(
                    inArray(memberships.status, LIVE_MEMBERSHIP_STATUSES),
                    isNull(memberships.endedAt),
                    gte(memberships.endedAt, cutoffs.customerData),
                  ),
                ),
              ),
          ),
        ),
      )
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    if (expired.length === 0) break;
    const erased = await eraseCustomers(
      db,
      expired.map((customer) => customer.id),
    );
    add({
      unpaidOrders: erased.orders,
      orderEvents: erased.orderEvents,
      paymentAttempts: erased.paymentAttempts,
      customersDeleted: erased.customersDeleted,
      customersAnonymised: erased.customersAnonymised,
    });
    if (expired.length < BATCH_SIZE) break;
  }

  const messages = await db
    .delete(contactMessages)
    .where(lt(contactMessages.createdAt, cutoffs.contactMessages))
    .returning({ id: contactMessages.id });
  const unsubscribes = await db
    .delete(unsubscribeRequests)
    .where(lt(unsubscribeRequests.createdAt, cutoffs.unsubscribeRequests))
    .returning({ id: unsubscribeRequests.id });
  const statements = await db
    .delete(withdrawals)
    .where(lt(withdrawals.receivedAt, cutoffs.customerData))
    .returning({ id: withdrawals.id });
  const counters = await db
    .delete(rateLimit)
    .where(lt(rateLimit.lastRequest, cutoffs.rateLimitCounters.getTime()))
    .returning({ id: rateLimit.id });
  add({
    contactMessages: messages.length,
    unsubscribeRequests: unsubscribes.length,
    withdrawals: statements.length,
    rateLimitCounters: counters.length,
  });
  return counts;
}

type RetentionLogger = Pick<Logger, "info" | "error">;

/** Runs the job now and logs what it removed (counts only). Never throws: a failed run is logged. */
export async function runRetentionAndLog(db: Database, logger: RetentionLogger, now = new Date()) {
  const started = Date.now();
  try {
    const outcome = await runRetention(db, { now });
    recordJobRun("retention", outcome.ran ? "done" : "skipped", started);
    if (outcome.ran) logger.info({ ...outcome.counts, durationMs: Date.now() - started }, "retention run");
    else logger.info("retention run skipped: another instance is running it");
  } catch (error) {
    recordJobRun("retention", "failed", started);
    logger.error({ err: error }, "retention run failed");
  }
}

/** Runs the job `firstRunDelayMs` after boot, then every `intervalMs`. */
export function scheduleRetention(
  db: Database,
  { intervalMs, firstRunDelayMs, logger }: { intervalMs: number; firstRunDelayMs: number; logger: RetentionLogger },
): JobSchedule {
  return scheduleJob(() => runRetentionAndLog(db, logger), { intervalMs, firstRunDelayMs });
}
