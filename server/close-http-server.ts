import type { Server } from "node:http";

/** How often a closing server looks for keep-alive connections that have become idle. */
const IDLE_SWEEP_MS = 50;

/**
 * Stops accepting connections and resolves once the requests in flight are answered, waiting at
 * most `graceMs` before cutting the stragglers off. Keep-alive connections are closed as soon as
 * they fall idle: otherwise each would hold the shutdown until its keep-alive timeout.
 */
export function closeHttpServer(server: Server, graceMs: number): Promise<void> {
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cutOff = setTimeout(() => server.closeAllConnections(), graceMs);
  return new Promise<void>((resolve) => {
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cutOff);
      resolve();
    });
    server.closeIdleConnections();
  });
}
