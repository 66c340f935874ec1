import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "~/env.server";
import { logger } from "~/logger.server";
import { clusterMetrics } from "./cluster-metrics.server";
import { METRICS_CONTENT_TYPE, processMetrics } from "./metrics.server";
import { siteFiguresText, type SiteFigures } from "./site-figures.server";

/** Within a usual scrape timeout (Prometheus: 10 s), leaving the database's share to the process metrics. */
const DATABASE_TIMEOUT_MS = 2_000;
/**
 * The primary gives up on a worker that does not answer after 5 s (prom-client's fixed wait), then
 * says so: waiting a little longer lets that answer, which names the cause, arrive first.
 */
const CLUSTER_TIMEOUT_MS = 6_000;

const NO_STORE = { "Cache-Control": "no-store" };

/** Whether `authorization` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1] ?? "";
  // Digests have one length whatever was sent, and timingSafeEqual wants equal lengths.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The site's figures, or nothing when the database cannot give them: the process metrics still go out. */
async function siteFigures(read: () => Promise<SiteFigures>): Promise<string> {
  try {
    return await siteFiguresText(await withinTime(read(), DATABASE_TIMEOUT_MS, "the database figures"));
  } catch (error) {
    logger.error({ err: error }, "metrics: the database figures could not be read");
    return "";
  }
}

/**
 * GET /metrics (ADR 024): not found unless METRICS_TOKEN is set, then only with that bearer token.
 * The process's figures (in a cluster, every worker's, asked through the primary) and the site's,
 * which `readSiteFigures` reads from the database.
 */
export async function metricsResponse(
  request: Request,
  readSiteFigures: () => Promise<SiteFigures>,
): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return new Response("Not Found", { status: 404, headers: NO_STORE });
  if (!bearerMatches(request.headers.get("Authorization"), token)) {
    logger.warn("metrics: a scrape without the right token was refused");
    return new Response("Unauthorized", {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"', ...NO_STORE },
    });
  }
  const processes = cluster.isWorker ? clusterMetrics(CLUSTER_TIMEOUT_MS) : processMetrics();
  try {
    const [processFigures, dataFigures] = await Promise.all([processes, siteFigures(readSiteFigures)]);
    return new Response(processFigures + dataFigures, {
      headers: { "Content-Type": METRICS_CONTENT_TYPE, ...NO_STORE },
    });
  } catch (error) {
    logger.error({ err: error }, "metrics: the workers' figures could not be gathered");
    return new Response("Service Unavailable", { status: 503, headers: NO_STORE });
  }
}
