export interface JobSchedule {
  /** Stops the schedule and waits for a run under way, so that the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs `run` `firstRunDelayMs` after boot, then `intervalMs` after each run ends, so that runs
 * never overlap in one process. `run` must not throw: it logs its own failures.
 */
export function scheduleJob(
  run: () => Promise<void>,
  { intervalMs, firstRunDelayMs }: { intervalMs: number; firstRunDelayMs: number },
): JobSchedule {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout;
  const wait = (ms: number) => {
    timer = setTimeout(tick, ms).unref();
  };
  const tick = () => {
    running = run().finally(() => {
      running = undefined;
      if (!stopped) wait(intervalMs);
    });
  };
  wait(firstRunDelayMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
