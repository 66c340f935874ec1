import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "drizzle-orm/logger";

/** The SQL queries run so far for one request. */
export interface QueryTally {
  count: number;
}

const currentTally = new AsyncLocalStorage<QueryTally>();

/**
 * A Drizzle logger that counts each query against the request it runs for, instead of logging it.
 * Installed only when the benchmark asks (BENCH_COUNT_QUERIES): see bench/admin-pages.ts.
 */
export const queryCounter: Logger = {
  logQuery() {
    const tally = currentTally.getStore();
    if (tally) tally.count += 1;
  },
};

/** Runs `work` (and everything it starts) with its queries counted in `tally`. */
export function countingQueries<T>(tally: QueryTally, work: () => T): T {
  return currentTally.run(tally, work);
}
