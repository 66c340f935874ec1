import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { httpRequestDuration } from "./metrics.server";

type RouteManifest = ServerBuild["routes"];
type ManifestRoute = NonNullable<RouteManifest[string]>;

/** The label of what the static files answered, before any route. */
export const STATIC_ROUTE = "static";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function routeTree(manifest: RouteManifest, parentId?: string): RouteObject[] {
  return Object.values(manifest)
    .filter((route): route is ManifestRoute => route !== undefined && route.parentId === parentId)
    .map(({ id, path, index, caseSensitive }) =>
      index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: routeTree(manifest, id) },
    );
}

/**
 * Matching a path walks and ranks the whole route table (a tenth of a millisecond or more): each
 * path is matched once and remembered, up to this many paths of up to this length. Past that,
 * paths are matched each time.
 */
const MAX_REMEMBERED_PATHS = 1_000;
const MAX_REMEMBERED_PATH_LENGTH = 200;

/**
 * The pattern of the route a path lands on (`/fast-track-payment/:orderId`, `/*` for an unknown
 * page), so that one label stands for every order, customer or mistyped address: the series stay
 * as few as the routes. React Router's data requests (`/admin/orders.data`, `/_root.data`) count
 * as their page. `firstPaths` are remembered from the start, whatever fills the memory later: the
 * page cache's pages, whose hits must stay cheap.
 */
export function routePatterns(
  manifest: RouteManifest,
  firstPaths: readonly string[] = [],
): (pathname: string) => string {
  const routes = routeTree(manifest);
  const match = (pathname: string) => {
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = matchRoutes(routes, page) ?? [];
    const pattern = matches
      .map((match) => match.route.path)
      .filter(Boolean)
      .join("/");
    return `/${pattern}`.replace(/\/{2,}/g, "/");
  };
  const remembered = new Map(firstPaths.map((path) => [path, match(path)]));
  return (pathname) => {
    let pattern = remembered.get(pathname);
    if (pattern === undefined) {
      pattern = match(pathname);
      if (remembered.size < MAX_REMEMBERED_PATHS && pathname.length <= MAX_REMEMBERED_PATH_LENGTH) {
        remembered.set(pathname, pattern);
      }
    }
    return pattern;
  };
}

/**
 * Times each request from its arrival to the end of its response, and counts it by method, route
 * pattern and status. The pattern is worked out once the response has gone, for the requests that
 * went past the static files (`routed`); the others are the static files'.
 */
export function requestTimer(patternOf: (pathname: string) => string) {
  const routedPaths = new WeakMap<IncomingMessage, string>();
  // A page-cache hit's series, one per page: its labels are worked out once, not on every hit.
  const hitSeries = new Map<string, { observe(seconds: number): void }>();
  return {
    time(req: IncomingMessage, res: ServerResponse) {
      const stop = httpRequestDuration.startTimer();
      res.once("finish", () => {
        const path = routedPaths.get(req);
        stop({
          method: req.method && METHODS.has(req.method) ? req.method : "other",
          route: path === undefined ? STATIC_ROUTE : patternOf(path),
          status: String(res.statusCode),
        });
      });
    },
    /**
     * Counts a page-cache hit that arrived at `startedAt` (`performance.now()`). A hit is written
     * whole in the node:http callback, so it is timed to its handing to the socket, without the
     * 'finish' listener and the timer object every other request gets.
     */
    hit(req: IncomingMessage, res: ServerResponse, startedAt: number) {
      const key = `${req.method} ${res.statusCode} ${req.url}`;
      let series = hitSeries.get(key);
      if (!series) {
        series = httpRequestDuration.labels({
          method: req.method && METHODS.has(req.method) ? req.method : "other",
          route: patternOf(req.url ?? "/"),
          status: String(res.statusCode),
        });
        hitSeries.set(key, series);
      }
      series.observe((performance.now() - startedAt) / 1000);
    },
    /** Marks a request that went past the static files, on its way to the site's routes. */
    routed(req: IncomingMessage) {
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      routedPaths.set(req, query < 0 ? url : url.slice(0, query));
    },
  };
}

export type RequestTimer = ReturnType<typeof requestTimer>;
