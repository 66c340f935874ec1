import { and, desc, eq, ne, notInArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { jobRuns, type JobName, type JobRunOutcome } from "~/db/schema";
import { logger } from "~/logger.server";

/** Runs kept per job and outcome: a run left to another instance never pushes a done or failed one out. */
export const JOB_RUNS_KEPT = 50;

export type JobRun = Omit<typeof jobRuns.$inferSelect, "job">;

/** What a run that did not fail says of itself. */
export interface JobRunSummary {
  outcome: Exclude<JobRunOutcome, "failed">;
  counts: Record<string, number>;
}

/**
 * Runs a scheduled job's run and records it (ADR 026): when it started and ended, and whether it did
 * its work (with its counts), left it to another run holding the job's lock, or failed (with the
 * error's message, the error then thrown on). Recording never fails the run: a run that cannot be
 * recorded is logged.
 */
export async function recordedRun<T>(
  db: Database,
  job: JobName,
  run: () => Promise<T>,
  summary: (result: T) => JobRunSummary,
): Promise<T> {
  const startedAt = new Date();
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordRun(db, { job, outcome: "failed", startedAt, error: message.slice(0, 1000) });
    throw error;
  }
  await recordRun(db, { job, startedAt, ...summary(result) });
  return result;
}

async function recordRun(
  db: Database,
  run: { job: JobName; outcome: JobRunOutcome; startedAt: Date; counts?: Record<string, number>; error?: string },
) {
  try {
    await db.insert(jobRuns).values({ ...run, finishedAt: new Date() });
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

/** A job's latest run that did its work or failed, however many runs left it to another since. */
export async function latestJobWork(db: Database, job: JobName): Promise<JobRun | null> {
  const [run] = await db
    .select(runColumns)
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), ne(jobRuns.outcome, "skipped")))
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  return run ?? null;
}
