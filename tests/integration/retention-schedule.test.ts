import { subHours } from "date-fns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { book } from "./personal-data-fixtures";
import { startProductionServer, type ProductionServer } from "./production-server";
import { testDatabaseKind } from "./test-database";

const kind = testDatabaseKind();
let server: ProductionServer;

beforeAll(async () => {
  server = await startProductionServer(kind);
});

afterAll(async () => {
  await server.dispose();
});

function retentionLogLines() {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "retention run");
}

describe(`the retention job in the production server on ${kind}`, () => {
  it("runs shortly after boot and logs counts only", { timeout: 60_000 }, async () => {
    // On PostgreSQL the test can reach the server's database: an order made 49 hours ago is due.
    let database: DatabaseHandle | undefined;
    if (server.databaseUrl) {
      database = await openDatabase({ kind: "postgres", url: server.databaseUrl });
      await book(database.db, { email: "due@example.com", createdAt: subHours(new Date(), 49) });
    }
    await expect.poll(retentionLogLines, { timeout: 30_000, interval: 500 }).toHaveLength(1);
    const [line] = retentionLogLines();
    const { level, time, pid, hostname, msg, durationMs, ...counts } = line!;
    expect({ level, msg, durationMs }).toEqual({ level: 30, msg: "retention run", durationMs: expect.any(Number) });
    expect([time, pid, hostname]).not.toContain(undefined);
    expect(counts).toEqual({
      unpaidOrders: database ? 1 : 0,
      orderEvents: database ? 1 : 0,
      paymentAttempts: 0,
      customersDeleted: database ? 1 : 0,
      customersAnonymised: 0,
      contactMessages: 0,
      unsubscribeRequests: 0,
    });
    expect(server.output()).not.toContain("due@example.com");
    await database?.close();
  });
});
