import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { request as httpRequest, type IncomingMessage } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { RATE_LIMIT_TIERS, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { inlineScriptHashes } from "../../../server/page-cache";
import { BODY_LIMITS, BODY_TOO_LARGE_MESSAGE, FOREIGN_ORIGIN_MESSAGE } from "../../../server/request-guards";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { CONTACT_FORM_FIELDS } from "../../support/integration/contact-form-fields";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

const kind = testDatabaseKind();
let server: ProductionServer;

beforeAll(async () => {
  // NODE_ENV: the default outside tests, which adds Strict-Transport-Security. TRUST_PROXY: a test
  // can then speak from an address of its own.
  server = await startProductionServer(kind, { NODE_ENV: "production", TRUST_PROXY: "loopback" });
});

afterAll(async () => {
  await server.dispose();
});

const SECURITY_HEADERS = {
  "strict-transport-security": "max-age=31536000",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": expect.stringContaining("camera=()"),
  "content-security-policy": expect.stringMatching(
    /^default-src 'self'; script-src 'self'( '(nonce|sha256)-[\w+/=]+')*; .*frame-ancestors 'none'/,
  ),
};

/** The status and headers curl receives for a GET of `path` (redirects not followed). */
function curlHead(path: string, extraArgs: string[] = []) {
  const raw = execFileSync(
    "curl",
    [
      "--silent",
      "--show-error",
      "--dump-header",
      "-",
      "--output",
      "/dev/null",
      ...extraArgs,
      `${server.baseUrl}${path}`,
    ],
    {
      encoding: "utf8",
    },
  );
  const [statusLine, ...lines] = raw.trim().split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine!.split(" ")[1]), headers };
}

function nonceOf(response: Response) {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

function postContact(
  headers: Record<string, string>,
  body: string = new URLSearchParams(CONTACT_FORM_FIELDS).toString(),
) {
  return fetch(`${server.baseUrl}/contact`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...headers },
    body,
  });
}

/** The contact messages the server stored, when the test can reach its database (PostgreSQL). */
async function storedMessages() {
  if (!server.databaseUrl) return undefined;
  const database = await openDatabase({ kind: "postgres", url: server.databaseUrl });
  try {
    return await database.db.$count(contactMessages);
  } finally {
    await database.close();
  }
}

/**
 * Sends a request with `body`, then, on the same connection once the body is out, a GET of /healthz
 * that closes it: the statuses answered, and when the server closed the connection.
 */
async function twoRequestsOnOneConnection(requestLine: string, headers: Record<string, string>, body: string) {
  const { host, port } = new URL(server.baseUrl);
  const socket = connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  const head = Object.entries({
    Host: host,
    Origin: server.baseUrl,
    ...headers,
    "Content-Length": Buffer.byteLength(body),
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const sent = Date.now();
  socket.write(`${requestLine}\r\n${head}\r\n`);
  socket.write(body, () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
  const closed = once(socket, "close").then(() => Date.now() - sent);
  const closedAfterMs = await Promise.race([
    closed,
    new Promise<number>((resolve) => setTimeout(resolve, 10_000, Infinity)),
  ]);
  socket.destroy();
  const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => Number(match[1]));
  return { statuses, closedAfterMs };
}

describe(`the production server's protections on ${kind}`, () => {
  it("sends the security headers on a page, on a hashed asset and on the admin redirect (curl)", async () => {
    const home = curlHead("/");
    expect(home.status).toBe(200);
    expect(home.headers).toMatchObject(SECURITY_HEADERS);
    expect(home.headers["content-security-policy"]).not.toMatch(/unsafe-inline'[^;]*;.*script|unsafe-eval/);
    expect(home.headers["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The home page is sent without React's scripts (ADR 013): no inline script to allow.
    expect(home.headers["content-security-policy"]).toContain("script-src 'self'; ");
    // Sandbox mode: no other origin, and no frames (Stripe's are allowed only in Stripe mode).
    expect(home.headers["content-security-policy"]).toContain("connect-src 'self'; ");
    expect(home.headers["content-security-policy"]).not.toContain("frame-src");

    // React DOM's chunk, which a hydrated page loads: large enough to be compressed.
    const asset = /\/assets\/entry\.client-[\w-]+\.js/.exec(await (await fetch(`${server.baseUrl}/auth`)).text())![0];
    const assetResponse = curlHead(asset, ["--header", "Accept-Encoding: gzip"]);
    expect(assetResponse.status).toBe(200);
    expect(assetResponse.headers).toMatchObject({
      ...SECURITY_HEADERS,
      "cache-control": "public, max-age=31536000, immutable",
      "content-encoding": "gzip",
    });

    const admin = curlHead("/admin");
    expect(admin.status).toBe(302);
    expect(admin.headers).toMatchObject(SECURITY_HEADERS);
  });

  it("gives every rendered response a nonce of its own, carried by every script of the page", async () => {
    // The sign-in page is hydrated (so it has inline scripts) and rendered for each visitor, never cached.
    const first = await fetch(`${server.baseUrl}/auth`);
    const second = await fetch(`${server.baseUrl}/auth`);
    const nonce = nonceOf(first);
    expect(nonce).toMatch(/^[\w+/]{22}==$/);
    expect(nonceOf(second)).not.toBe(nonce);

    const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  });

  it("allows a cached page's inline scripts by their hashes, since its body is shared", async () => {
    await fetch(`${server.baseUrl}/contact`);
    const cached = await fetch(`${server.baseUrl}/contact`);
    expect(cached.headers.get("x-page-cache")).toBe("hit");
    const policy = cached.headers.get("content-security-policy") ?? "";
    expect(policy).not.toContain("'nonce-");
    // Every cached page is now sent without React's scripts (ADR 013), so the list is empty here;
    // inlineScriptHashes itself is tested on a page with inline scripts (server/page-cache.test.ts).
    const hashes = inlineScriptHashes(await cached.text());
    expect(policy).toContain(`script-src ${["'self'", ...hashes].join(" ")};`);
  });

  it("refuses a POST from another website with 403, storing nothing", async () => {
    const refused = await postContact({ Origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(FOREIGN_ORIGIN_MESSAGE.replace("'", "&#39;"));
    const byReferer = await postContact({ Referer: "https://evil.example/page" });
    expect(byReferer.status).toBe(403);
    expect(await storedMessages()).toBe(server.databaseUrl ? 0 : undefined);
  });

  it("answers methods it does not serve before React Router, logging no error: TRACE 501, PUT and DELETE 405, POST to a page 405", async () => {
    const status = (method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${server.baseUrl}${path}`, { method, headers: { Origin: server.baseUrl } });
        request.on("response", (response: IncomingMessage) => {
          response.resume();
          resolve(response.statusCode!);
        });
        request.on("error", reject);
        request.end();
      });
    const logged = server.output().length;
    expect(await status("TRACE", "/")).toBe(501);
    expect(await status("PUT", "/contact")).toBe(405);
    expect(await status("DELETE", "/admin/orders")).toBe(405);
    expect(await status("POST", "/faq")).toBe(405);
    const lines = server.output().slice(logged);
    expect(lines).not.toMatch(/"level":(50|60)/);
    expect(lines).not.toContain('"stack"');
  });

  it("refuses an oversized body with 413, and a body of unknown length with 411", async () => {
    const huge = new URLSearchParams({ ...CONTACT_FORM_FIELDS, message: "x".repeat(BODY_LIMITS.other) }).toString();
    const refused = await postContact({ Origin: server.baseUrl }, huge);
    expect(refused.status).toBe(413);
    expect(await refused.text()).toContain(BODY_TOO_LARGE_MESSAGE);

    const chunked = await fetch(`${server.baseUrl}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new Blob([new URLSearchParams(CONTACT_FORM_FIELDS).toString()]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
    expect(await storedMessages()).toBe(server.databaseUrl ? 0 : undefined);
  });

  it("closes the connection after answering a request whose body it did not read, so the next one is not held up", async () => {
    const json = JSON.stringify({ wordings: "x".repeat(BODY_LIMITS.json - 100) });
    // Refused for want of an admin session before its body is read.
    const unread = await twoRequestsOnOneConnection(
      "POST /api/regenerate-wordings HTTP/1.1",
      { "Content-Type": "application/json", "X-Forwarded-For": "10.9.0.1" },
      json,
    );
    expect(unread.statuses).toEqual([401]);
    expect(unread.closedAfterMs).toBeLessThan(2_000);

    // A body that was read leaves the connection open for the next request.
    const read = await twoRequestsOnOneConnection(
      "POST /contact HTTP/1.1",
      { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.9.0.2" },
      "name=",
    );
    expect(read.statuses).toEqual([400, 200]);
  });

  it("accepts the site's own public form up to its rate limit, then answers 429 with the message and when to retry", async () => {
    const { max } = RATE_LIMIT_TIERS.publicForms;
    for (let index = 0; index < max; index++) {
      expect((await postContact({ Origin: server.baseUrl })).status).toBe(302);
    }
    const limited = await postContact({ Origin: server.baseUrl });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(TOO_MANY_REQUESTS);
    expect(await storedMessages()).toBe(server.databaseUrl ? max : undefined);
  });

  it("says when to retry on the booking form over its limit too (its own route passes the header on)", async () => {
    const book = () =>
      fetch(`${server.baseUrl}/fast-track-form`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.baseUrl, "X-Forwarded-For": "203.0.113.50" },
        body: new URLSearchParams(bookingFormFields()),
      });
    for (let index = 0; index < RATE_LIMIT_TIERS.publicForms.max; index++) expect((await book()).status).toBe(302);
    const limited = await book();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(TOO_MANY_REQUESTS);
  });

  it("limits every other request per client address, answering 429 with when to retry", async () => {
    const { max } = RATE_LIMIT_TIERS.everythingElse;
    const visit = (address: string) =>
      fetch(`${server.baseUrl}/robots.txt`, { headers: { "X-Forwarded-For": address } });
    for (let index = 0; index < max; index++) expect((await visit("203.0.113.9")).status).toBe(200);
    const limited = await visit("203.0.113.9");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toBe(TOO_MANY_REQUESTS);
    expect((await visit("203.0.113.10")).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/healthz`, { headers: { "X-Forwarded-For": "203.0.113.9" } })).status).toBe(
      200,
    );
  });

  it("on SIGTERM, stops accepting, finishes the request in flight, then exits with 0", async () => {
    const body = Buffer.from(new URLSearchParams({ currency: "EUR", redirectTo: "/" }).toString());
    const inFlight = httpRequest(`${server.baseUrl}/currency`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": body.length },
    });
    const answered = once(inFlight, "response") as Promise<[IncomingMessage]>;
    inFlight.write(body.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
    expect(server.process.exitCode).toBeNull();

    const stoppingAt = Date.now();
    inFlight.end(body.subarray(5));
    const [response] = await answered;
    expect(response.statusCode).toBe(302);
    expect(response.headers["set-cookie"]?.join()).toContain("EUR");
    response.resume();
    expect(await exited).toBe(0);
    expect(Date.now() - stoppingAt).toBeLessThan(3_000);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it("on SIGTERM, lets the work of clients that hung up finish before closing the database", async () => {
    const leaving = await startProductionServer(kind, { TRUST_PROXY: "loopback" });
    const book = (index: number, signal?: AbortSignal) =>
      fetch(`${leaving.baseUrl}/fast-track-form`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: leaving.baseUrl, "X-Forwarded-For": `10.31.0.${index}` },
        body: new URLSearchParams(bookingFormFields()),
        signal,
      });
    try {
      expect((await book(0)).status).toBe(302); // warm: the next ones reach the database at once
      const client = new AbortController();
      const hangUps = Array.from({ length: 20 }, (_, index) => book(index + 1, client.signal).catch(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 60)); // the bookings are in their actions by now
      client.abort();
      const exited = leaving.stop();
      await Promise.all(hangUps);
      expect(await exited).toBe(0);
      expect(leaving.output()).not.toContain("The database is not open");
      expect(leaving.output()).toContain('"msg":"stopped"');
    } finally {
      await leaving.dispose();
    }
  });

  it.runIf(kind === "postgres")(
    "on SIGTERM, waits for a hung-up booking held up in its action before closing the database",
    async () => {
      const leaving = await startProductionServer(kind, { TRUST_PROXY: "loopback" });
      const holder = new pg.Client({ connectionString: leaving.databaseUrl });
      await holder.connect();
      const address = "10.32.0.1";
      try {
        // Only the booking form's own rate-limit count uses this key: it waits on the uncommitted row.
        await holder.query("begin");
        await holder.query(
          "insert into rate_limit (id, key, count, last_request) values (gen_random_uuid()::text, $1, 0, $2)",
          [`tier:publicForms:${address}`, Date.now()],
        );
        const client = new AbortController();
        const hangUp = fetch(`${leaving.baseUrl}/fast-track-form`, {
          method: "POST",
          redirect: "manual",
          headers: { Origin: leaving.baseUrl, "X-Forwarded-For": address },
          body: new URLSearchParams(bookingFormFields()),
          signal: client.signal,
        }).catch(() => undefined);
        await vi.waitFor(
          async () => {
            const { rows } = await holder.query<{ waiting: number }>(
              "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            );
            expect(rows[0]?.waiting).toBe(1);
          },
          { timeout: 10_000, interval: 50 },
        );
        client.abort();
        await hangUp;
        const exited = leaving.stop();
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(leaving.process.exitCode).toBeNull();
        await holder.query("rollback");
        expect(await exited).toBe(0);
        expect(leaving.output()).not.toContain("The database is not open");
        expect(leaving.output()).toContain('"msg":"stopped"');
      } finally {
        await holder.end();
        await leaving.dispose();
      }
    },
  );
});
