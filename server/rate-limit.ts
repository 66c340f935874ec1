import type { RequestHandler } from "express";
import { database } from "~/db/client.server";
import { countRequest, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { logger } from "~/logger.server";
import { refuse } from "./request-guards";

/**
 * Load balancers poll /healthz often, and it writes nothing; Stripe's events come in bursts from
 * Stripe's own addresses, and each is signed.
 */
const UNCOUNTED_PATHS = new Set(["/healthz", "/stripe/webhook"]);

/**
 * The "everything else" tier, for every request that reaches the app (static files are served
 * before this). Forms and payments count again in their own tiers, in their actions. When the
 * database cannot count, the request goes through: the limiter must not take the site down with it.
 */
export const generalRateLimit: RequestHandler = (req, res, next) => {
  if (UNCOUNTED_PATHS.has(req.path) || !req.ip) return next();
  countRequest(database().db, "everythingElse", req.ip).then(
    (outcome) => {
      if (!outcome.limited) return next();
      res.set("Retry-After", String(outcome.retryAfterSeconds));
      refuse(req, res, 429, TOO_MANY_REQUESTS);
    },
    (error: unknown) => {
      logger.error({ err: error }, "rate limit could not be counted");
      next();
    },
  );
};
