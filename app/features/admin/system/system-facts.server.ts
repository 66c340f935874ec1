import type { DatabaseHandle, DatabasePooler } from "~/db/client.server";
import { JOB_NAMES, type JobName } from "~/db/schema";
import type { Env } from "~/env.server";
import { outboxDepth, type OutboxDepth } from "~/platform/mail/failed-mails.server";
import { gatewayLabelFr } from "~/features/payments/live-gateway.server";
import { failedEventCount } from "~/features/provider-events/failed-events.server";
import { buildInfo, type BuildInfo } from "~/lib/build-info.server";
import { latestJobWork, recentJobRuns, type JobRun } from "~/lib/job-runs.server";

/** How many of each job's latest runs the system page shows. */
export const JOB_RUNS_SHOWN = 8;

export interface ScheduledJob {
  job: JobName;
  /** How often this server runs it; 0 when it leaves it to the CLI (or to another instance). */
  intervalMinutes: number;
  /** The latest run that did the work or failed: runs left to another instance may have come since. */
  latestWork: JobRun | null;
  runs: JobRun[];
}

/** What the back office's system page shows: how this server is set up and how its work is going. */
export interface SystemFacts {
  payments: string;
  database: { kind: DatabaseHandle["kind"]; pooler: DatabasePooler; poolSize: number };
  mail: OutboxDepth & { smtp: boolean };
  failedEvents: number;
  jobs: ScheduledJob[];
  build: BuildInfo | null;
}

const INTERVALS: Record<JobName, (config: Env) => number> = {
  retention: (config) => config.RETENTION_INTERVAL_MINUTES,
  billing: (config) => config.BILLING_INTERVAL_MINUTES,
};

export async function systemFacts(handle: DatabaseHandle, config: Env): Promise<SystemFacts> {
  const { db } = handle;
  const jobs: ScheduledJob[] = [];
  for (const job of JOB_NAMES) {
    jobs.push({
      job,
      intervalMinutes: INTERVALS[job](config),
      latestWork: await latestJobWork(db, job),
      runs: await recentJobRuns(db, job, JOB_RUNS_SHOWN),
    });
  }
  return {
    payments: gatewayLabelFr(config),
    database: { kind: handle.kind, pooler: config.DATABASE_POOLER, poolSize: config.DATABASE_POOL_SIZE },
    mail: { ...(await outboxDepth(db)), smtp: Boolean(config.SMTP_URL) },
    failedEvents: await failedEventCount(db),
    jobs,
    build: buildInfo(),
  };
}
