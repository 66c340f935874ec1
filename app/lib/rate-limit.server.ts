import type { Database } from "~/db/client.server";
import { CLIENT_ADDRESS_HEADER } from "./client-address.server";
import { windowCounter } from "./window-counter.server";
import { logger } from "~/logger.server";

/**
 * Requests allowed per client address in each fixed window. Sign-in and sign-up, the strictest tier,
 * are counted by better-auth in the same table (AUTH_RATE_LIMITS in auth.server.ts).
 */
export const RATE_LIMIT_TIERS = {
  /** Card attempts: enough for a few typing mistakes, too few to test stolen card numbers. */
  payment: { max: 10, windowSeconds: 60 },
  /** Contact, services, unsubscribe and booking forms. */
  publicForms: { max: 10, windowSeconds: 60 },
  /**
   * Sign-in codes mailed to one e-mail address, whoever asks (counted per address, not per client):
   * enough for a lost e-mail or two, too few to flood someone's inbox.
   */
  signInCodesPerAddress: { max: 3, windowSeconds: 15 * 60 },
  /** Every other request that reaches the app (not static files): five a second, sustained. */
  everythingElse: { max: 300, windowSeconds: 60 },
} as const;

export type RateLimitTier = keyof typeof RATE_LIMIT_TIERS;

export const TOO_MANY_REQUESTS = "Too many requests from your network. Please wait a minute and try again.";

export type RateLimitOutcome = { limited: false } | { limited: true; retryAfterSeconds: number };

/**
 * Counts one request of a client address against a tier and says whether it is over the limit.
 * The count is an atomic upsert in the database, so every instance sharing it counts together.
 * The rows live in better-auth's `rate_limit` table under keys of their own
 * ("tier:<tier>:<address>"), where `last_request` holds the start of the current window.
 */
export async function countRequest(
  db: Database,
  tier: RateLimitTier,
  address: string,
  now = Date.now(),
): Promise<RateLimitOutcome> {
  const { max, windowSeconds } = RATE_LIMIT_TIERS[tier];
  const windowMs = windowSeconds * 1000;
  const { count, windowStart } = await windowCounter(db, windowMs).add(`tier:${tier}:${address}`, now);
  if (count <= max) return { limited: false };
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

/** The status and Retry-After header of an answer to a limited request. */
export function tooManyRequests(limit: { retryAfterSeconds: number }) {
  return { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } };
}

/**
 * Counts a request of the address the server determined (CLIENT_ADDRESS_HEADER). Requests that did
 * not come through the HTTP server (tests calling actions directly) have none and are not counted.
 * When the database cannot count, the request goes through (and the failure is logged): the work
 * it asks for will then say what went wrong in its own words.
 */
export async function countClientRequest(
  db: Database,
  tier: RateLimitTier,
  request: Request,
): Promise<RateLimitOutcome> {
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  if (!address) return { limited: false };
  try {
    return await countRequest(db, tier, address);
  } catch (error) {
    logger.error({ err: error, tier }, "rate limit could not be counted");
    return { limited: false };
  }
}
