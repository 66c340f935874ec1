import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";

/** The longest a job's work keeps the event loop before it lets the requests waiting meanwhile in. */
const SLICE_MS = 5;

/** One job's turns on the event loop: see `eventLoopShare`. */
export interface EventLoopShare {
  /** Call it between units of work: once the work since the last pause took `SLICE_MS`, it yields. */
  pause(): Promise<void>;
}

/**
 * For a long job running in the process that serves requests (the billing job renders thousands of
 * receipts): each run takes a share of its own, whose slice starts now, and pauses it between units
 * of work. Once its work since the last pause took `SLICE_MS`, it waits for the next turn of the
 * event loop, so that a request is not stuck behind a whole batch. Promise continuations alone never
 * let I/O in: only a macrotask does. Two jobs never share a slice.
 */
export function eventLoopShare(now: () => number = () => performance.now()): EventLoopShare {
  let sliceStarted = now();
  return {
    async pause() {
      if (now() - sliceStarted < SLICE_MS) return;
      await setImmediate();
      sliceStarted = now();
    },
  };
}
