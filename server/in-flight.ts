import type { ServerResponse } from "node:http";
import { runBefore } from "./response-hooks";

/**
 * The requests a stopping server must let finish before it closes the database. A request counts
 * from its arrival, so that one still in an earlier step (express.static's file lookup, the rate
 * limit's count) when its client hangs up is counted as well: a hung-up request goes on through the
 * middleware, and nothing tells when, except that it ends by answering or by reaching its route.
 * It stops counting once it is answered (`res.end`, called even on a closed connection), or once its
 * route has taken it over (`handedOn`), whose work then counts until it has settled.
 */
export function inFlightWork() {
  let running = 0;
  let whenIdle: (() => void) | undefined;
  const arrivals = new WeakMap<ServerResponse, () => void>();

  const begin = () => {
    running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--running === 0) whenIdle?.();
    };
  };

  return {
    /** Counts a request from its arrival until it is answered or handed on to its route. */
    arrived(res: ServerResponse) {
      const done = begin();
      arrivals.set(res, done);
      runBefore(res, "end", done);
    },
    /** The route's `work` for a request counted since its arrival: it counts until it has settled. */
    handedOn(res: ServerResponse, work: Promise<unknown>) {
      const done = begin();
      work.then(done, done);
      arrivals.get(res)?.();
    },
    /** Resolves once nothing counts any more, or after `timeoutMs`. */
    settled(timeoutMs: number) {
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        whenIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

export type InFlightWork = ReturnType<typeof inFlightWork>;
