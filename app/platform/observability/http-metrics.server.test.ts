import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { requestTimer, routePatterns, STATIC_ROUTE } from "./http-metrics.server";
import { httpRequestDuration } from "./metrics.server";

/** The request counts of the histogram, by their labels. */
async function requestCounts() {
  const { values } = await httpRequestDuration.get();
  return values
    .filter((value) => value.metricName === "http_request_duration_seconds_count")
    .map(({ labels, value }) => ({ labels, value }));
}

// The shape of the server build's route manifest: the root, a pathless layout, an index route,
// parameters and splats (app/routes.ts).
const manifest = {
  root: { id: "root", path: "" },
  "routes/home": { id: "routes/home", parentId: "root", index: true },
  "routes/admin.layout": { id: "routes/admin.layout", parentId: "root" },
  "routes/admin.orders": { id: "routes/admin.orders", parentId: "routes/admin.layout", path: "admin/orders" },
  "routes/admin.orders.$orderId": {
    id: "routes/admin.orders.$orderId",
    parentId: "routes/admin.layout",
    path: "admin/orders/:orderId",
  },
  "routes/faq": { id: "routes/faq", parentId: "root", path: "faq" },
  "routes/api.auth.$": { id: "routes/api.auth.$", parentId: "root", path: "api/auth/*" },
  "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*" },
} as unknown as Parameters<typeof routePatterns>[0];

describe("routePatterns", () => {
  const patternOf = routePatterns(manifest);

  it.each([
    ["/", "/"],
    ["/faq", "/faq"],
    ["/admin/orders", "/admin/orders"],
    ["/admin/orders/0a1b2c3d-0000-4000-8000-000000000000", "/admin/orders/:orderId"],
    ["/admin/orders/another-one", "/admin/orders/:orderId"],
    ["/api/auth/sign-in/email", "/api/auth/*"],
    ["/no/such/page", "/*"],
    ["/wp-login.php", "/*"],
  ])("labels %s as %s", (path, pattern) => {
    expect(patternOf(path)).toBe(pattern);
  });

  it("labels React Router's data requests as their page", () => {
    expect(patternOf("/admin/orders/42.data")).toBe("/admin/orders/:orderId");
    expect(patternOf("/_root.data")).toBe("/");
  });
});

describe("requestTimer", () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.close();
    if (server) await once(server, "close");
  });

  it("counts each answered request by method, route pattern and status; the static files apart", async () => {
    const timer = requestTimer(routePatterns(manifest));
    server = createServer((req, res) => {
      timer.time(req, res);
      if (req.url!.startsWith("/assets/")) return res.end("static");
      timer.routed(req);
      res.statusCode = req.url!.startsWith("/admin/") ? 403 : 200;
      res.end("page");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const before = await requestCounts();
    for (const path of ["/admin/orders/1?page=2", "/admin/orders/2", "/faq", "/assets/app.js"]) {
      await (await fetch(`${base}${path}`)).text();
    }
    await (await fetch(`${base}/faq`, { method: "POST" })).text();
    await (await fetch(`${base}/faq`, { method: "PROPFIND" })).text();
    const after = await requestCounts();

    type Labels = { method: string; route: string; status: string };
    const count = ({ method, route, status }: Labels, counts: typeof after) =>
      counts.find(({ labels }) => labels.method === method && labels.route === route && labels.status === status)
        ?.value ?? 0;
    const grew = (labels: Labels) => count(labels, after) - count(labels, before);
    expect(grew({ method: "GET", route: "/admin/orders/:orderId", status: "403" })).toBe(2);
    expect(grew({ method: "GET", route: "/faq", status: "200" })).toBe(1);
    expect(grew({ method: "POST", route: "/faq", status: "200" })).toBe(1);
    expect(grew({ method: "other", route: "/faq", status: "200" })).toBe(1);
    expect(grew({ method: "GET", route: STATIC_ROUTE, status: "200" })).toBe(1);
    expect(after.map((entry) => entry.labels.route)).not.toContain("/admin/orders/1");
  });

  it("counts a page-cache hit by its page's pattern and status, with no 'finish' listener", async () => {
    const timer = requestTimer(routePatterns(manifest));
    const addedListeners: number[] = [];
    server = createServer((req, res) => {
      const arrived = performance.now();
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("cached page");
      const listeners = res.listenerCount("finish");
      timer.hit(req, res, arrived);
      addedListeners.push(res.listenerCount("finish") - listeners);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const count = (counts: Awaited<ReturnType<typeof requestCounts>>) =>
      counts.find(({ labels }) => labels.method === "GET" && labels.route === "/faq" && labels.status === "200")
        ?.value ?? 0;
    const before = count(await requestCounts());
    for (let view = 0; view < 3; view++) await (await fetch(`${base}/faq`)).text();
    expect(count(await requestCounts()) - before).toBe(3);
    expect(addedListeners).toEqual([0, 0, 0]);
  });
});
