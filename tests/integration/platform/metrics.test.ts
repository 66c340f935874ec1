import { randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as metricsLoader } from "~/routes/metrics";
import { childProcesses, connectToWorker } from "../../support/cluster-workers";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { growth, sampleValue } from "../../support/metrics-text";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// /metrics (ADR 024) on the production server: scraped before and after what a visitor does.

const kind = testDatabaseKind();
const TOKEN = randomBytes(24).toString("hex");
const nextYear = String(new Date().getFullYear() + 1);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scrape(server: ProductionServer) {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Scrapes until `ready` holds for the text, or gives up after `timeoutMs`. */
async function scrapeUntil(server: ProductionServer, ready: (text: string) => boolean, timeoutMs = 40_000) {
  for (const started = Date.now(); ; await sleep(500)) {
    const text = await scrape(server);
    if (ready(text) || Date.now() - started > timeoutMs) return text;
  }
}

/** Books a fast track through the form, as a browser without JavaScript: the order's page. */
async function book(server: ProductionServer) {
  const form = await (await fetch(`${server.baseUrl}/fast-track-form`)).text();
  const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(form)![1]!;
  const email = `metrics.${randomUUID().slice(0, 8)}@example.com`;
  const booked = await fetch(`${server.baseUrl}/fast-track-form`, {
    method: "POST",
    body: new URLSearchParams(bookingFormFields({ idempotencyKey, email })),
    redirect: "manual",
  });
  expect(booked.status).toBe(302);
  return booked.headers.get("Location")!;
}

async function pay(server: ProductionServer, orderPath: string, cardNumber: string) {
  const response = await fetch(`${server.baseUrl}${orderPath}`, {
    method: "POST",
    body: new URLSearchParams({ cardNumber, expiryMonth: "06", expiryYear: nextYear, cvv: "123", consent: "on" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return response.status;
}

describe("/metrics without METRICS_TOKEN", () => {
  it("is not found", async () => {
    const response = await metricsLoader({
      request: new Request("http://localhost/metrics", { headers: { Authorization: "Bearer anything" } }),
    } as Parameters<typeof metricsLoader>[0]);
    expect(response.status).toBe(404);
  });
});

describe(`/metrics of the production server on ${kind}`, () => {
  let server: ProductionServer;

  beforeAll(async () => {
    // The jobs keep their schedule: retention 10 s after boot, billing 15 s.
    server = await startProductionServer(kind, { METRICS_TOKEN: TOKEN });
  });

  afterAll(async () => {
    await server.dispose();
  });

  it("refuses a scrape without the token or with another one, and says so in the log", async () => {
    const without = await fetch(`${server.baseUrl}/metrics`);
    const wrong = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN.slice(1)}x` } });
    for (const response of [without, wrong]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain("http_request");
    }
    await sleep(200);
    expect(server.output().match(/"msg":"metrics: a scrape without the right token was refused"/g)).toHaveLength(2);
    expect(server.output()).not.toContain(TOKEN);
  });

  it("answers in Prometheus's text format, never to be kept by a cache", async () => {
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.headers.get("Content-Type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = await response.text();
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(text).toContain("# TYPE bookings_created_total counter");
    expect(text).toContain("# TYPE memberships gauge");
    expect(sampleValue(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(sampleValue(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("counts the requests by route and status, the bookings and the payments, and reads memberships and mails from the database", async () => {
    const before = await scrape(server);
    await (await fetch(`${server.baseUrl}/faq`)).text();
    await (await fetch(`${server.baseUrl}/fast-track-payment/${randomUUID()}`)).text();
    const orderPath = await book(server);
    expect(await pay(server, orderPath, "4000 0000 0000 0002")).toBe(402);
    expect(await pay(server, orderPath, "4242 4242 4242 4242")).toBe(302);
    const after = await scrape(server);

    const requests = (route: string, status: string, method = "GET") =>
      growth(before, after, "http_request_duration_seconds_count", { method, route, status });
    expect(requests("/faq", "200")).toBe(1);
    expect(requests("/fast-track-payment/:orderId", "404")).toBe(1);
    expect(requests("/fast-track-form", "302", "POST")).toBe(1);
    expect(requests("/fast-track-payment/:orderId", "402", "POST")).toBe(1);
    expect(requests("/metrics", "200")).toBe(1);
    expect(after).not.toContain(orderPath);

    expect(growth(before, after, "bookings_created_total")).toBe(1);
    expect(growth(before, after, "payments_total", { outcome: "declined" })).toBe(1);
    expect(growth(before, after, "payments_total", { outcome: "paid" })).toBe(1);
    expect(growth(before, after, "payments_total", { outcome: "error" })).toBe(0);
    // The paid first booking started a trial and queued its confirmation (no SMTP here: it stays queued).
    expect(growth(before, after, "memberships", { status: "trialing" })).toBe(1);
    expect(sampleValue(after, "outbox_queue_depth")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, "outbox_failed_mails")).toBe(0);
    expect(sampleValue(after, "memberships", { status: "ended" }), "every status, even at zero").toBe(0);
    expect(sampleValue(after, "failed_provider_events")).toBe(0);
  });

  it("counts the page cache's hits with their page's route and status", async () => {
    await (await fetch(`${server.baseUrl}/services`)).text();
    const before = await scrape(server);
    const hits = [];
    for (let view = 0; view < 3; view++) {
      const response = await fetch(`${server.baseUrl}/services`);
      await response.text();
      hits.push(response.headers.get("X-Page-Cache"));
    }
    const after = await scrape(server);
    expect(hits).toEqual(["hit", "hit", "hit"]);
    expect(
      growth(before, after, "http_request_duration_seconds_count", {
        method: "GET",
        route: "/services",
        status: "200",
      }),
    ).toBe(3);
  });

  it("counts the runs of the retention and billing jobs, with their time and duration", async () => {
    const ran = (text: string, job: string) => sampleValue(text, "job_runs_total", { job, outcome: "done" }) ?? 0;
    const text = await scrapeUntil(server, (scraped) => ran(scraped, "retention") >= 1 && ran(scraped, "billing") >= 1);
    for (const job of ["retention", "billing"]) {
      expect(ran(text, job), job).toBe(1);
      const lastRun = sampleValue(text, "job_last_run_timestamp_seconds", { job, outcome: "done" })!;
      expect(Date.now() / 1000 - lastRun).toBeLessThan(60);
      expect(sampleValue(text, "job_run_duration_seconds_count", { job })).toBe(1);
    }
    expect(sampleValue(text, "membership_renewals_total", { outcome: "paid" })).toBe(0);
  });
});

/** A connection that `worker` holds (the primary hands connections out in turn). */
async function connectionHeldBy(server: ProductionServer, worker: number) {
  const port = Number(new URL(server.baseUrl).port);
  for (let attempt = 0; attempt < 20; attempt++) {
    const { client, worker: holder } = await connectToWorker(port, childProcesses(server.process.pid!));
    if (holder === worker) return client;
    client.destroy();
  }
  throw new Error(`no connection reached worker ${worker}`);
}

/** Sends a GET over `connection`. */
async function getOver(connection: Socket, path: string, headers: Record<string, string>) {
  const request = httpRequest({
    createConnection: () => connection,
    path,
    headers: { ...headers, Connection: "close" },
  });
  request.end();
  const [response] = (await once(request, "response")) as [IncomingMessage];
  let body = "";
  for await (const chunk of response) body += chunk;
  return { status: response.statusCode!, body };
}

/** Sends a GET over a connection that `worker` holds. */
async function getFromWorker(server: ProductionServer, worker: number, path: string, headers: Record<string, string>) {
  return getOver(await connectionHeldBy(server, worker), path, headers);
}

describe.runIf(kind === "postgres")("/metrics with WEB_CONCURRENCY=2 on PostgreSQL", () => {
  let server: ProductionServer;
  let workers: number[];

  beforeAll(async () => {
    server = await startProductionServer(kind, { METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2" });
    for (let waited = 0; waited < 30_000; waited += 100) {
      if (server.output().match(/"msg":"server listening"/g)?.length === 2) break;
      await sleep(100);
    }
    workers = childProcesses(server.process.pid!);
    expect(workers).toHaveLength(2);
  });

  afterAll(async () => {
    await server.dispose();
  });

  it("answers for every worker, whichever one the scrape reaches", async () => {
    const [first, second] = workers as [number, number];
    const authorization = { Authorization: `Bearer ${TOKEN}` };
    const before = await getFromWorker(server, first, "/metrics", authorization);
    for (let index = 0; index < 3; index++) expect((await getFromWorker(server, first, "/faq", {})).status).toBe(200);
    for (let index = 0; index < 2; index++) expect((await getFromWorker(server, second, "/faq", {})).status).toBe(200);
    const fromFirst = await getFromWorker(server, first, "/metrics", authorization);
    const fromSecond = await getFromWorker(server, second, "/metrics", authorization);

    const faqViews = { method: "GET", route: "/faq", status: "200" };
    for (const after of [fromFirst, fromSecond]) {
      expect(after.status).toBe(200);
      expect(growth(before.body, after.body, "http_request_duration_seconds_count", faqViews)).toBe(5);
    }
    // The database's figures are read once per scrape, not once per worker.
    expect(fromSecond.body.match(/^# TYPE outbox_queue_depth gauge$/gm)).toHaveLength(1);
    expect(sampleValue(fromSecond.body, "outbox_queue_depth")).toBe(0);
  });

  it("answers 503 within seconds while a worker does not answer, and logs why", async () => {
    const [first, second] = workers as [number, number];
    // Held before the second worker stops: the primary might hand a new connection to it.
    const connection = await connectionHeldBy(server, first);
    process.kill(second, "SIGSTOP");
    try {
      const started = Date.now();
      const { status } = await getOver(connection, "/metrics", { Authorization: `Bearer ${TOKEN}` });
      expect(status).toBe(503);
      expect(Date.now() - started).toBeLessThan(8_000);
      await sleep(200);
      // The primary's own words for a worker that stayed silent, not the asking worker's guess.
      expect(server.output()).toContain("the primary could not gather the workers' metrics: Operation timed out.");
    } finally {
      process.kill(second, "SIGCONT");
    }
  });
});
