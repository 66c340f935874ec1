import cluster, { type Worker } from "node:cluster";
import { logger } from "~/logger.server";

/** A worker that served this long before dying was not crash-looping: its replacement starts at once. */
const STEADY_AFTER_MS = 10_000;
/** After deaths in quick succession, replacements wait this long, doubled each time up to the maximum. */
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** Beyond the workers' own grace, how long the primary waits for them to close their database. */
const STOP_MARGIN_MS = 5_000;

/** The wait before replacing a worker, after `quickDeaths` deaths in a row of workers that had not settled. */
export function restartDelay(quickDeaths: number) {
  return quickDeaths === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (quickDeaths - 1));
}

/**
 * The primary process of `WEB_CONCURRENCY` > 1 (ADR 020): it serves nothing, forks `count` workers
 * that share the port, replaces a worker that dies, and on SIGTERM or SIGINT has every worker drain
 * (each stops as a single server does), then exits: 0 if every worker stopped cleanly.
 */
export function superviseWorkers({ count, graceMs }: { count: number; graceMs: number }) {
  const running = new Map<Worker, number>();
  let quickDeaths = 0;
  let stopping = false;
  let clean = true;

  const fork = () => {
    const worker = cluster.fork();
    running.set(worker, Date.now());
    logger.info({ worker: worker.process.pid }, "worker started");
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (running.get(worker) ?? Date.now());
    running.delete(worker);
    if (stopping) {
      clean &&= code === 0;
      logger.info({ worker: worker.process.pid, code, signal }, "worker stopped");
      if (running.size === 0) process.exit(clean ? 0 : 1);
      return;
    }
    quickDeaths = lived >= STEADY_AFTER_MS ? 0 : quickDeaths + 1;
    const delayMs = restartDelay(quickDeaths);
    logger.error({ worker: worker.process.pid, code, signal, restartInMs: delayMs }, "worker died: starting another");
    setTimeout(() => {
      if (!stopping) fork();
    }, delayMs);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: running.size }, "shutting down");
    if (running.size === 0) process.exit(0);
    // Not worker.kill(): it disconnects the worker first, and a worker that loses its primary exits at once.
    for (const worker of running.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      logger.error(
        { workers: [...running.keys()].map((worker) => worker.process.pid) },
        "workers did not stop in time",
      );
      for (const worker of running.keys()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, graceMs + STOP_MARGIN_MS).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  for (let index = 0; index < count; index++) fork();
}
