import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";

/** The longest a job's work keeps the event loop before it lets the requests waiting meanwhile in. */
const SLICE_MS = 5;

let sliceStarted = performance.now();

/**
 * For a long job running in the process that serves requests (the billing job renders thousands of
 * receipts): call it between units of work. Once the work since the last pause took `SLICE_MS`, it
 * waits for the next turn of the event loop, so that a request is not stuck behind a whole batch.
 * Promise continuations alone never let I/O in: only a macrotask does.
 */
export async function shareEventLoop() {
  if (performance.now() - sliceStarted < SLICE_MS) return;
  await setImmediate();
  sliceStarted = performance.now();
}
