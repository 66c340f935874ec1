import { execFile } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { customers, orders } from "~/db/schema";
import { childProcesses, connectToWorker } from "../../support/cluster-workers";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { productionServerArgs } from "../../support/production-node";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// WEB_CONCURRENCY: several server processes sharing the port (ADR 020).

const kind = testDatabaseKind();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    const found = check();
    if (found !== undefined) return found;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Opens `connections` connections, one after the other, and asks /healthz on each: the statuses each worker answered. */
async function answersByWorker(server: ProductionServer, workers: number[], connections = 4) {
  const port = Number(new URL(server.baseUrl).port);
  const answers = new Map<number, number[]>();
  for (let index = 0; index < connections; index++) {
    const { client, worker } = await connectToWorker(port, workers);
    let response = "";
    client.on("data", (chunk: Buffer) => (response += chunk.toString()));
    // Written, not ended: the server answers a client that half-closed its connection with nothing.
    client.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    await once(client, "close");
    const key = worker ?? 0;
    answers.set(key, [...(answers.get(key) ?? []), Number(/^HTTP\/1\.1 (\d+)/.exec(response)?.[1])]);
  }
  return answers;
}

/** Pids that logged `message`, in order. */
function loggedBy(server: ProductionServer, message: string): number[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes(`"msg":"${message}"`))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
}

describe.runIf(kind === "postgres")("WEB_CONCURRENCY=2 on PostgreSQL", () => {
  let server: ProductionServer;
  let primary: number;

  beforeAll(async () => {
    server = await startProductionServer(kind, { WEB_CONCURRENCY: "2", TRUST_PROXY: "loopback" });
    primary = server.process.pid!;
    await waitFor("both workers listening", () =>
      loggedBy(server, "server listening").length === 2 ? true : undefined,
    );
  });

  afterAll(async () => {
    await server.dispose();
  });

  it("runs two workers under a primary that serves nothing, and both answer", async () => {
    const workers = childProcesses(primary);
    expect(workers).toHaveLength(2);
    expect(loggedBy(server, "server listening").sort()).toEqual([...workers].sort());
    const answers = await answersByWorker(server, workers);
    expect([...answers.keys()].sort()).toEqual([...workers].sort());
    for (const statuses of answers.values()) expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("replaces a worker killed with SIGKILL, the other answering meanwhile", async () => {
    const [killed, survivor] = childProcesses(primary) as [number, number];
    process.kill(killed, "SIGKILL");
    await waitFor("the primary to see the worker die", () =>
      server.output().includes('"msg":"worker died: starting another"') ? true : undefined,
    );
    for (let index = 0; index < 4; index++) expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);

    const replacement = await waitFor("a new worker listening", () =>
      loggedBy(server, "server listening").find((pid) => pid !== killed && pid !== survivor),
    );
    expect(childProcesses(primary).sort()).toEqual([survivor, replacement].sort());
    const answers = await answersByWorker(server, [survivor, replacement]);
    expect(answers.get(replacement)).toContain(200);
  });

  it("on SIGTERM, every worker drains: a booking in flight is answered and stored, then the primary exits with 0", async () => {
    const fields = bookingFormFields({ email: `drained.${Date.now()}@example.com` });
    const body = Buffer.from(new URLSearchParams(fields).toString());
    const inFlight = httpRequest(`${server.baseUrl}/fast-track-form`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": body.length,
        Origin: server.baseUrl,
      },
    });
    const answered = once(inFlight, "response") as Promise<[IncomingMessage]>;
    inFlight.write(body.subarray(0, 20));
    await sleep(300);

    const exited = server.stop();
    await sleep(500);
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
    expect(server.process.exitCode).toBeNull();

    inFlight.end(body.subarray(20));
    const [response] = await answered;
    expect(response.statusCode).toBe(302);
    response.resume();
    expect(await exited).toBe(0);
    expect(loggedBy(server, "stopped")).toHaveLength(2);
    const output = server.output();
    expect(output.slice(output.indexOf('"msg":"shutting down"'))).not.toContain('"msg":"worker started"');

    const database = await openDatabase({ kind: "postgres", url: server.databaseUrl! });
    try {
      const stored = await database.db
        .select({ id: orders.id })
        .from(orders)
        .innerJoin(customers, eq(customers.id, orders.customerId))
        .where(eq(customers.email, fields.email!));
      expect(stored).toHaveLength(1);
    } finally {
      await database.close();
    }
  });
});

/** Boots the production server with `env` and expects it to refuse: its exit code and output. */
function refusedBoot(env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      productionServerArgs(),
      { env: { ...process.env, PORT: "1", DATA_DIR: join(tmpdir(), "never-opened"), ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
    );
  });
}

describe("WEB_CONCURRENCY refused at boot", () => {
  it("refuses a value that is not a number of processes", async () => {
    const { code, output } = await refusedBoot({ WEB_CONCURRENCY: "two" });
    expect(code).toBe(1);
    expect(output).toContain("WEB_CONCURRENCY: must be a whole number of server processes");
  });

  it("refuses more than one process on the embedded database", async () => {
    const { code, output } = await refusedBoot({ WEB_CONCURRENCY: "2", DATABASE_URL: "" });
    expect(code).toBe(1);
    expect(output).toContain("WEB_CONCURRENCY: must be 1 on the embedded database (PGlite)");
  });
});
