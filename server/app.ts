/**
 * The server: the boot path (`start`, at the end) and the request path, which is this list. Each
 * request takes one of three paths:
 *
 *   A. A page-cache hit: an anonymous GET of a shared public page is answered from memory in the
 *      node:http callback, before Express: no session, no database, no rate limit (page-cache.ts).
 *   B. A page-cache miss of such a page: Express, down to step 10, which renders it with a second,
 *      fetch-style React Router handler and keeps it when it may be shared.
 *   C. Everything else: Express, every step down to React Router's own handler (step 12).
 *
 * In the node:http callback, for all three: the request id (the proxy's when it is trusted). A hit
 * (A) carries it in its prebuilt header list and is counted in /metrics' histogram as it is sent
 * (`timer.hit`); it logs nothing and is answered before the callback returns, so it takes none of
 * what follows. For B and C: the id wraps the request's work, so that logs carry it; /metrics'
 * timer starts; the id goes on the response, the request counts as in flight (a stopping server
 * waits for it), and an answer sent before its body was read closes the connection. Then Express,
 * in this order:
 *
 *   1. the query count header, for the benchmark only (BENCH_COUNT_QUERIES);
 *   2. security headers and the CSP nonce, on every answer, errors included;
 *   3. only GET, HEAD and POST: anything else is refused before any work;
 *   4. compression;
 *   5. the built assets from disk (or Vite's dev middleware): no session, no rate limit;
 *   6. the metrics' route label, for what the static files did not answer;
 *   7. the client's address, from the proxy's header when TRUST_PROXY trusts it;
 *   8. same-origin POSTs only (the CSRF guard);
 *   9. the body size limit, before anything reads a body;
 *  10. the page cache's renderer (path B);
 *  11. the general rate limit, which cached pages do not count against (they cost no database work);
 *  12. React Router (route-handler.ts): sessions, loaders, actions, the database; its work counts
 *      in flight until it settles, also when its client has hung up.
 *
 * Two helpers hook the response object, both through `runBefore` (response-hooks.ts): the query
 * count header and the in-flight count.
 */
import "react-router";
import { createRequestHandler as createWebRequestHandler } from "react-router";
import compression from "compression";
import cluster from "node:cluster";
import { createServer, type IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { databaseTargetFromEnv, installDatabase, openDatabase, type Database } from "~/db/client.server";
import { env } from "~/env.server";
import { startOutboxWorker } from "~/platform/mail/outbox-worker.server";
import { scheduleBilling } from "~/features/memberships/billing-job.server";
import { answerMetricsAsks } from "~/platform/observability/cluster-metrics.server";
import { requestTimer, routePatterns } from "~/platform/observability/http-metrics.server";
import { startProcessMetrics } from "~/platform/observability/metrics.server";
import { REQUEST_ID_HEADER, requestIdFor, withRequestId } from "~/platform/observability/request-id.server";
import { gatewayLabel } from "~/features/payments/live-gateway.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { scheduleRetention } from "~/features/privacy/retention-job.server";
import { markInterruptedRuns } from "~/lib/job-runs.server";
import { recordServedOrigin, siteOrigin } from "~/lib/site-origin.server";
import { logger } from "~/logger.server";
import { PUBLIC_PAGE_PATHS } from "~/platform/seo/sitemap";
import { clientAddress } from "./client-address";
import { closeHttpServer } from "./close-http-server";
import { superviseWorkers } from "./cluster";
import { scheduleGatewayFollowUp } from "./gateway-follow-up";
import { inFlightWork, type InFlightWork } from "./in-flight";
import { MAIL_TEMPLATES } from "./mail-templates";
import { createPageCache } from "./page-cache";
import { queryCountHeader } from "./query-count";
import { generalRateLimit } from "./rate-limit";
import { bodySizeLimit, sameOriginRequests, servedMethodsOnly } from "./request-guards";
import { routeHandler } from "./route-handler";
import {
  cspNonce,
  securityHeaderValues,
  securityHeaders,
  stripeSources,
  type SecurityHeaderOptions,
} from "./security-headers";

/** The public pages every anonymous visitor sees alike: the booking form's loader hands out an idempotency key. */
const SHARED_PAGE_PATHS = PUBLIC_PAGE_PATHS.filter((path) => path !== "/fast-track-form");

/** How long a stopping server lets requests in flight finish. */
const SHUTDOWN_GRACE_MS = 10_000;
/** The jobs' first runs wait for the boot to settle. */
const RETENTION_FIRST_RUN_DELAY_MS = 10_000;
const BILLING_FIRST_RUN_DELAY_MS = 15_000;
const FOLLOW_UP_FIRST_RUN_DELAY_MS = 20_000;
const FOLLOW_UP_INTERVAL_MS = 5 * 60_000;

interface StartOptions {
  /** Vite's dev middleware, in development; in production the built client is served from disk. */
  devMiddleware?: RequestHandler;
}

const loadServerBuild = () => import("virtual:react-router/server-build");
type ServerBuild = Awaited<ReturnType<typeof loadServerBuild>>;

function sharedPageCache(build: ServerBuild, headerOptions: SecurityHeaderOptions) {
  const render = createWebRequestHandler(build, "production");
  return createPageCache({
    paths: SHARED_PAGE_PATHS,
    render: (request, nonce) => render(request, { cspNonce: nonce }),
    securityHeaders: (hashes) => securityHeaderValues(hashes, headerOptions),
  });
}

/**
 * In production the build is loaded once: handed a function instead, React Router rebuilds its route
 * tables on every request (for development, where Vite swaps changed modules), a sixth of a booking's
 * CPU time.
 */
async function createApp({ devMiddleware }: StartOptions, inFlight: InFlightWork) {
  const build = devMiddleware ? loadServerBuild : await loadServerBuild();
  const app = express();
  const config = env();
  if (config.BENCH_COUNT_QUERIES) app.use(queryCountHeader);
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  // Express's own reading of TRUST_PROXY: whether the address at hop `hop` (0: the peer) may be believed.
  const trusts = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const trustedPeer = trustedPeers(trusts);
  // Only with /metrics on: the route table is the build's, loaded once even in development.
  const timer = config.METRICS_TOKEN
    ? requestTimer(routePatterns((typeof build === "function" ? await build() : build).routes, SHARED_PAGE_PATHS))
    : undefined;
  const headerOptions = {
    production: config.NODE_ENV === "production",
    reportOnly: Boolean(devMiddleware),
    thirdParty: config.STRIPE_SECRET_KEY
      ? stripeSources({ scriptUrl: config.STRIPE_JS_URL, apiBase: config.STRIPE_API_BASE })
      : undefined,
  };
  app.use(securityHeaders(headerOptions));
  app.use(servedMethodsOnly);
  // In development every request is rendered afresh; in production anonymous page views are cached.
  const cache = typeof build === "function" ? undefined : sharedPageCache(build, headerOptions);
  app.use(compression());
  if (devMiddleware) {
    app.use(devMiddleware);
  } else {
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
    app.use(express.static("build/client", { maxAge: "1h", index: false }));
  }
  if (timer) {
    app.use((req, _res, next) => {
      timer.routed(req);
      next();
    });
  }
  app.use(clientAddress);
  app.use(sameOriginRequests(config.SITE_URL));
  app.use(bodySizeLimit);
  // Cached page views cost no database work: only the rest counts against the general limit.
  if (cache) app.use(cache.middleware);
  app.use(generalRateLimit);
  const handleRequest = routeHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (_req, res) => ({ cspNonce: cspNonce(res) }),
  });
  app.use((req, res, next) => {
    // A client that hung up before its request reached here: its body can no longer be read (React
    // Router would wait for it for ever) and no one waits for the answer. Ending the response stops
    // counting the request.
    if (res.destroyed) return res.end();
    inFlight.handedOn(res, handleRequest(req, res, next));
  });
  return createServer((req, res) => {
    const arrived = timer ? performance.now() : 0;
    const peer = req.socket.remoteAddress;
    const id = requestIdFor(req.headers["x-request-id"], peer !== undefined && trustedPeer(peer));
    // A hit is answered before this returns and logs nothing: it needs no id in scope.
    if (cache?.serve(req, res, [REQUEST_ID_HEADER, id])) {
      timer?.hit(req, res, arrived);
      return;
    }
    withRequestId(id, () => {
      timer?.time(req, res);
      res.setHeader(REQUEST_ID_HEADER, id);
      inFlight.arrived(res);
      res.once("finish", () => closeIfBodyUnread(req));
      app(req, res);
    });
  });
}

/** Peers whose trust is remembered: past that many, the rest are asked about each time. */
const MAX_REMEMBERED_PEERS = 1_000;

/**
 * Whether a peer is a proxy TRUST_PROXY trusts, remembered per address: Express's compiled setting
 * parses the address on every call, a measured share of a page-cache hit (bench/NOTES.md).
 */
function trustedPeers(trusts: (address: string, hop: number) => boolean) {
  const remembered = new Map<string, boolean>();
  return (peer: string) => {
    let trusted = remembered.get(peer);
    if (trusted === undefined) {
      trusted = trusts(peer, 0);
      if (remembered.size < MAX_REMEMBERED_PEERS) remembered.set(peer, trusted);
    }
    return trusted;
  };
}

/**
 * A request answered before its body was read (a refusal by its route, say) keeps the rest of that
 * body between its client and the next answer on the connection: Node leaves a body it saw being
 * read to its reader, who stopped. The connection is closed once the answer is out instead, so the
 * next request goes on a new one rather than wait for the connection to time out.
 */
function closeIfBodyUnread(req: IncomingMessage) {
  if (!req.complete) req.socket.destroySoon();
}

/** Job runs a killed process left "started" are marked interrupted at boot, for the system page. */
async function markDeadRuns(db: Database) {
  const interrupted = await markInterruptedRuns(db, new Date());
  if (interrupted > 0) logger.warn({ interrupted }, "job runs whose process died were marked interrupted");
}

/**
 * The boot path: open and migrate the database, start the outbox worker and the jobs, then listen.
 * With WEB_CONCURRENCY > 1 (ADR 020) this process migrates the database, then forks that many
 * workers that each take this path. Nothing here runs at import time, because `react-router build`
 * imports this bundle.
 */
export async function start(options: StartOptions = {}): Promise<void> {
  const config = env();
  // Vite's dev server runs in one process whatever WEB_CONCURRENCY says.
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1 && !options.devMiddleware) {
    // Migrated once, here: the workers find nothing left to apply.
    const migrated = await openDatabase(databaseTargetFromEnv(config));
    await markDeadRuns(migrated.db);
    await migrated.close();
    if (config.METRICS_TOKEN) answerMetricsAsks();
    superviseWorkers({ count: config.WEB_CONCURRENCY, graceMs: SHUTDOWN_GRACE_MS });
    return;
  }
  const handle = await openDatabase(databaseTargetFromEnv(config), { countQueries: config.BENCH_COUNT_QUERIES });
  installDatabase(handle);
  if (handle.kind === "pglite") recordServedOrigin(config);
  if (cluster.isPrimary) await markDeadRuns(handle.db);
  if (config.METRICS_TOKEN) startProcessMetrics();
  const outboxWorker = startOutboxWorker(handle.db, config, MAIL_TEMPLATES);
  const retention =
    config.RETENTION_INTERVAL_MINUTES > 0
      ? scheduleRetention(handle.db, {
          intervalMs: config.RETENTION_INTERVAL_MINUTES * 60_000,
          firstRunDelayMs: RETENTION_FIRST_RUN_DELAY_MS,
          logger,
        })
      : undefined;
  // In Stripe mode the job still sends trial reminders and bills what the sandbox started; Stripe
  // bills its own subscriptions (ADR 018).
  const billing =
    config.BILLING_INTERVAL_MINUTES > 0
      ? scheduleBilling(handle.db, sandboxGateway, {
          intervalMs: config.BILLING_INTERVAL_MINUTES * 60_000,
          firstRunDelayMs: BILLING_FIRST_RUN_DELAY_MS,
          origin: siteOrigin(config),
          logger,
        })
      : undefined;
  const followUp = scheduleGatewayFollowUp(handle.db, {
    intervalMs: FOLLOW_UP_INTERVAL_MS,
    firstRunDelayMs: FOLLOW_UP_FIRST_RUN_DELAY_MS,
    logger,
    origin: siteOrigin(config),
  });
  const inFlight = inFlightWork();
  const server = (await createApp(options, inFlight)).listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, database: handle.kind, payments: gatewayLabel(config) }, "server listening");
  });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const graceEnds = Date.now() + SHUTDOWN_GRACE_MS;
    await closeHttpServer(server, SHUTDOWN_GRACE_MS);
    await inFlight.settled(Math.max(0, graceEnds - Date.now()));
    await retention?.stop();
    await billing?.stop();
    await followUp.stop();
    await outboxWorker.stop();
    installDatabase(undefined);
    await handle.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
