import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * What a proxy's id may look like: nginx's `$request_id` (32 hex digits), a uuid, most tracing ids.
 * Anything else (too long, spaces, quotes, control characters) could garble a log line or a header,
 * and is replaced.
 */
const ACCEPTED_ID = /^[\w.:+=/@-]{1,128}$/;

const currentId = new AsyncLocalStorage<string>();

/**
 * The id of a request: the one its proxy gave it (`X-Request-Id`) when the peer is a trusted proxy
 * (TRUST_PROXY) and the id looks sane, else a new uuid. A client talking to us directly cannot
 * choose its id, so it cannot make its log lines pass for another request's.
 */
export function requestIdFor(header: string | string[] | undefined, fromTrustedProxy: boolean): string {
  if (fromTrustedProxy && typeof header === "string" && ACCEPTED_ID.test(header)) return header;
  return randomUUID();
}

/** Runs `handle` (and everything it starts) as the handling of the request with this id. */
export function withRequestId<T>(id: string, handle: () => T): T {
  return currentId.run(id, handle);
}

/** The id of the request being handled, or undefined outside of one (jobs, boot). */
export function currentRequestId(): string | undefined {
  return currentId.getStore();
}
