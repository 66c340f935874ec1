import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// Request ids (ADR 024) on the production server. It trusts one proxy, 127.0.0.1; a client
// connecting from another loopback address, 127.0.0.2, is no proxy of its.

const kind = testDatabaseKind();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: ProductionServer;

interface Answer {
  status: number;
  requestId: string | undefined;
  pageCache: string | undefined;
  body: string;
}

/** GET `path` from the trusted proxy's address, or from `from`, sending `requestId` if given. */
function get(path: string, { requestId, from = "127.0.0.1" }: { requestId?: string; from?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(
      `${server.baseUrl}${path}`,
      { localAddress: from, headers: requestId === undefined ? {} : { "X-Request-Id": requestId } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            requestId: response.headers["x-request-id"] as string | undefined,
            pageCache: response.headers["x-page-cache"] as string | undefined,
            body,
          }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

interface LogLine {
  msg: string;
  requestId?: string;
  err?: { message: string };
}

/** The lines the server logs while `work` runs. */
async function linesLoggedDuring(work: () => Promise<unknown>): Promise<LogLine[]> {
  const from = server.output().length;
  await work();
  // pino writes asynchronously: give the last line a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return server
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

beforeAll(async () => {
  // The jobs stay off, so that only the requests below log anything.
  server = await startProductionServer(kind, {
    TRUST_PROXY: "127.0.0.1",
    RETENTION_INTERVAL_MINUTES: "0",
    BILLING_INTERVAL_MINUTES: "0",
  });
});

afterAll(async () => {
  await server.dispose();
});

describe(`request ids on ${kind}`, () => {
  it("answers every request with an id of its own: pages, cached pages, static files, health checks", async () => {
    const answers = [];
    for (const path of ["/faq", "/faq", "/favicon.svg", "/healthz", "/no-such-page"]) answers.push(await get(path));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404]);
    expect(answers[1]!.pageCache, "the second view comes from the page cache").toBe("hit");
    for (const answer of answers) expect(answer.requestId).toMatch(UUID);
    expect(new Set(answers.map((answer) => answer.requestId)).size).toBe(answers.length);
  });

  it("keeps the id its trusted proxy gives", async () => {
    expect((await get("/faq", { requestId: "0a1b2c3d4e5f60718293a4b5c6d7e8f9" })).requestId).toBe(
      "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    );
    expect((await get("/healthz", { requestId: "proxy-42" })).requestId).toBe("proxy-42");
  });

  it("gives a cached page its trusted proxy's id, else a fresh one, on every hit", async () => {
    await get("/services");
    const hits = [
      await get("/services", { requestId: "proxy-hit-1" }),
      await get("/services"),
      await get("/services"),
      await get("/services", { requestId: "chosen-by-the-client", from: "127.0.0.2" }),
    ];
    expect(hits.map((hit) => hit.pageCache)).toEqual(["hit", "hit", "hit", "hit"]);
    expect(hits[0]!.requestId).toBe("proxy-hit-1");
    for (const hit of hits.slice(1)) expect(hit.requestId).toMatch(UUID);
    expect(new Set(hits.map((hit) => hit.requestId)).size).toBe(hits.length);
  });

  it("replaces the id a client sends directly, not through the proxy", async () => {
    const answer = await get("/healthz", { requestId: "chosen-by-the-client", from: "127.0.0.2" });
    expect(answer.status).toBe(200);
    expect(answer.requestId).toMatch(UUID);
  });

  it("replaces a trusted proxy's id that is too long or holds characters a log line should not", async () => {
    for (const bad of ["x".repeat(200), 'a"b', "a b", "<b>"]) {
      expect((await get("/healthz", { requestId: bad })).requestId).toMatch(UUID);
    }
  });

  it("puts the id on every line the request logs", async () => {
    let answer: Answer | undefined;
    const lines = await linesLoggedDuring(async () => {
      answer = await get("/no-such-page", { requestId: "trace-the-404" });
    });
    expect(answer!.requestId).toBe("trace-the-404");
    expect(lines.map((line) => line.msg)).toContain("404: page not found");
    expect(lines.every((line) => line.requestId === "trace-the-404")).toBe(true);
  });
});

describe(`the error page on ${kind}`, () => {
  it("gives the request's id as its reference, for the visitor to quote", async () => {
    // A form posted in an encoding no form of the site uses is refused with a reason (415).
    const response = await fetch(`${server.baseUrl}/contact`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "name=Ann",
    });
    const page = await response.text();
    expect(response.status).toBe(415);
    expect(page).toContain("We could not accept this request");
    expect(page).toContain(
      `Reference: <code class="select-all wrap-break-word">${response.headers.get("X-Request-Id")}</code>`,
    );
  });
});

describe.runIf(kind === "postgres")("a request that fails, on PostgreSQL", () => {
  /** Hides tables from the running server, as a broken deploy or a lost database would. */
  async function renameTables(pairs: [string, string][]) {
    const handle = await openDatabase({ kind: "postgres", url: server.databaseUrl! });
    try {
      for (const [from, to] of pairs) await handle.db.execute(sql.raw(`alter table "${from}" rename to "${to}"`));
    } finally {
      await handle.close();
    }
  }

  it("shows its id on the error page, and every line it logged, in Express and in React Router, carries it", async () => {
    await renameTables([
      ["orders", "orders_hidden"],
      ["rate_limit", "rate_limit_hidden"],
    ]);
    let answer: Answer | undefined;
    try {
      const lines = await linesLoggedDuring(async () => {
        answer = await get("/fast-track-payment/7d1f9d0e-2a2b-4c3d-9e8f-0a1b2c3d4e5f", { from: "127.0.0.2" });
      });
      expect(answer!.status).toBe(500);
      expect(answer!.requestId).toMatch(UUID);
      expect(answer!.body).toContain("Something went wrong");
      expect(answer!.body).toContain(`Reference: <code class="select-all wrap-break-word">${answer!.requestId}</code>`);
      // Plain HTML: the browser could not draw the reference again.
      expect(answer!.body).not.toContain("<script");

      expect(lines.map((line) => line.msg)).toEqual(
        expect.arrayContaining(["rate limit could not be counted", "request failed"]),
      );
      expect(lines.every((line) => line.requestId === answer!.requestId)).toBe(true);
      const failure = lines.find((line) => line.msg === "request failed");
      expect(failure!.err!.message).toContain("orders");
    } finally {
      await renameTables([
        ["orders_hidden", "orders"],
        ["rate_limit_hidden", "rate_limit"],
      ]);
    }
  });
});
