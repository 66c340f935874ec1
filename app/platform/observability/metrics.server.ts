import cluster from "node:cluster";
import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, register } from "prom-client";
import { JOB_NAMES, JOB_RUN_OUTCOMES, type JobName, type JobRunOutcome } from "~/db/schema";

// Every metric the process counts lives here, in prom-client's global registry, which is what a
// scrape reads in a single process and what the cluster's primary gathers from each worker
// (ADR 024). The figures read from the database at scrape time are in site-figures.server.ts.

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its response, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

const bookingsCreated = new Counter({
  name: "bookings_created_total",
  help: "Fast-track bookings created (a repeated submission of one form counts once)",
});

export type PaymentOutcome = "paid" | "declined" | "pending" | "error";

const payments = new Counter({
  name: "payments_total",
  help: "Attempts to pay an order, by outcome: paid (the order turned paid), declined, pending (the bank has not decided), error (the gateway failed)",
  labelNames: ["outcome"] as const,
});

export type RenewalOutcome = "paid" | "declined" | "gateway_error";

const renewals = new Counter({
  name: "membership_renewals_total",
  help: "Membership fees the billing job charged, by outcome",
  labelNames: ["outcome"] as const,
});

export type MailDeliveryOutcome = "sent" | "retry" | "failed";

const mailDeliveries = new Counter({
  name: "outbox_deliveries_total",
  help: "Attempts to send an e-mail from the outbox, by outcome: sent, retry (failed, tried again later), failed (failed for the last time)",
  labelNames: ["outcome"] as const,
});

const jobRuns = new Counter({
  name: "job_runs_total",
  help: "Runs of the scheduled jobs, by job and outcome (skipped: another instance was running it)",
  labelNames: ["job", "outcome"] as const,
});

const jobLastRun = new Gauge({
  name: "job_last_run_timestamp_seconds",
  help: "When the job's last run of each outcome ended, in Unix seconds",
  labelNames: ["job", "outcome"] as const,
  // Across the workers of one instance the latest run is the one that matters.
  aggregator: "max",
});

const jobDuration = new Histogram({
  name: "job_run_duration_seconds",
  help: "How long the job's runs took (skipped runs aside)",
  labelNames: ["job"] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
});

// Every outcome is shown from the start, at zero, so that a rate over it exists before the first one.
for (const outcome of ["paid", "declined", "pending", "error"] satisfies PaymentOutcome[]) payments.inc({ outcome }, 0);
for (const outcome of ["paid", "declined", "gateway_error"] satisfies RenewalOutcome[]) renewals.inc({ outcome }, 0);
for (const outcome of ["sent", "retry", "failed"] satisfies MailDeliveryOutcome[]) mailDeliveries.inc({ outcome }, 0);
for (const job of JOB_NAMES) {
  for (const outcome of JOB_RUN_OUTCOMES) jobRuns.inc({ job, outcome }, 0);
}

export function countBooking() {
  bookingsCreated.inc();
}

export function countPayment(outcome: PaymentOutcome) {
  payments.inc({ outcome });
}

export function countRenewals({
  paid,
  declined,
  gatewayErrors,
}: {
  paid: number;
  declined: number;
  gatewayErrors: number;
}) {
  renewals.inc({ outcome: "paid" }, paid);
  renewals.inc({ outcome: "declined" }, declined);
  renewals.inc({ outcome: "gateway_error" }, gatewayErrors);
}

export function countMailDelivery(outcome: MailDeliveryOutcome) {
  mailDeliveries.inc({ outcome });
}

/** Records a run of `job` that began at `startedAt` (epoch milliseconds) and ends now. */
export function recordJobRun(job: JobName, outcome: JobRunOutcome, startedAt: number) {
  const now = Date.now();
  jobRuns.inc({ job, outcome });
  jobLastRun.set({ job, outcome }, now / 1000);
  if (outcome !== "skipped") jobDuration.observe({ job }, (now - startedAt) / 1000);
}

/**
 * Starts what a scrape needs beyond the counters: the process metrics (memory, CPU, event-loop
 * lag, garbage collection), and in a cluster worker the answer to the primary's requests for this
 * worker's metrics. From the boot path only, since it starts timers.
 */
export function startProcessMetrics() {
  collectDefaultMetrics();
  // prom-client answers the primary from any AggregatorRegistry made in a worker: this one is made
  // for that alone.
  if (cluster.isWorker) new AggregatorRegistry();
}

/** This process's metrics in the Prometheus text format. */
export function processMetrics(): Promise<string> {
  return register.metrics();
}

export const METRICS_CONTENT_TYPE = register.contentType;
