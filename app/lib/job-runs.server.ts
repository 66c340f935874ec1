import { and, desc, eq, lt, notInArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { jobRuns, type JobName, type JobRunOutcome } from "~/db/schema";
import { logger } from "~/logger.server";

/** Runs kept per job and outcome: a run left to another instance never pushes a done or failed one out. */
export const JOB_RUNS_KEPT = 50;

export type JobRun = Omit<typeof jobRuns.$inferSelect, "job">;

/** What a run that did not fail says of itself. */
export interface JobRunSummary {
  outcome: "done" | "skipped";
  counts: Record<string, number>;
}

/**
 * A run still "started" this long after it began is not running any more: its process died (a
 * SIGKILL, a crash, a lost machine). Longer than any run takes; a run that does finish later writes
 * its own outcome over the mark.
 */
export const JOB_RUN_STALE_AFTER_MS = 30 * 60_000;

/**
 * Runs a scheduled job's run and records it (ADR 026): a "started" row first, so that a run whose
 * process is killed leaves a trace (marked "interrupted" at a later boot, `markInterruptedRuns`),
 * then when it ended and whether it did its work (with its counts), left it to another run holding
 * the job's lock, or failed (with the error's message, the error then thrown on). Recording never
 * fails the run: a run that cannot be recorded is logged.
 */
export async function recordedRun<T>(
  db: Database,
  job: JobName,
  run: () => Promise<T>,
  summary: (result: T) => JobRunSummary,
): Promise<T> {
  const startedAt = new Date();
  const id = await recordStart(db, job, startedAt);
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordEnd(db, id, { job, outcome: "failed", startedAt, error: message.slice(0, 1000) });
    throw error;
  }
  await recordEnd(db, id, { job, startedAt, ...summary(result) });
  return result;
}

async function recordStart(db: Database, job: JobName, startedAt: Date): Promise<string | undefined> {
  try {
    const [row] = await db.insert(jobRuns).values({ job, outcome: "started", startedAt }).returning({ id: jobRuns.id });
    return row?.id;
  } catch (error) {
    logger.error({ err: error, job }, "a job's run could not be recorded");
    return undefined;
  }
}

async function recordEnd(
  db: Database,
  id: string | undefined,
  run: { job: JobName; outcome: JobRunOutcome; startedAt: Date; counts?: Record<string, number>; error?: string },
) {
  try {
    const ended = { ...run, finishedAt: new Date() };
    if (id) await db.update(jobRuns).set(ended).where(eq(jobRuns.id, id));
    else await db.insert(jobRuns).values(ended);
    const sameKind = and(eq(jobRuns.job, run.job), eq(jobRuns.outcome, run.outcome));
    await db
      .delete(jobRuns)
      .where(
        and(
          sameKind,
          notInArray(
            jobRuns.id,
            db
              .select({ id: jobRuns.id })
              .from(jobRuns)
              .where(sameKind)
              .orderBy(desc(jobRuns.startedAt))
              .limit(JOB_RUNS_KEPT),
          ),
        ),
      );
  } catch (error) {
    logger.error({ err: error, job: run.job, outcome: run.outcome }, "a job's run could not be recorded");
  }
}

/**
 * Marks "interrupted" every run still "started" `JOB_RUN_STALE_AFTER_MS` after it began: a server
 * does this at boot. Returns how many.
 */
export async function markInterruptedRuns(db: Database, now: Date): Promise<number> {
  const marked = await db
    .update(jobRuns)
    .set({ outcome: "interrupted" })
    .where(and(eq(jobRuns.outcome, "started"), lt(jobRuns.startedAt, new Date(now.getTime() - JOB_RUN_STALE_AFTER_MS))))
    .returning({ id: jobRuns.id });
  return marked.length;
}

const runColumns = {
  id: jobRuns.id,
  outcome: jobRuns.outcome,
  startedAt: jobRuns.startedAt,
  finishedAt: jobRuns.finishedAt,
  counts: jobRuns.counts,
  error: jobRuns.error,
};

/** A job's latest runs, newest first. */
export function recentJobRuns(db: Database, job: JobName, limit: number): Promise<JobRun[]> {
  return db.select(runColumns).from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.startedAt)).limit(limit);
}

/** A job's latest run that did its work, failed or died, however many runs left it to another since. */
export async function latestJobWork(db: Database, job: JobName): Promise<JobRun | null> {
  const [run] = await db
    .select(runColumns)
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), notInArray(jobRuns.outcome, ["skipped", "started"])))
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  return run ?? null;
}
