import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { orders } from "~/db/schema";
import { QUERY_COUNT_HEADER, queryCountHeader } from "../../../server/query-count";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../../support/test-database";

const kind = testDatabaseKind();
let handle: DatabaseHandle;
let dropDatabase = async () => {};
let baseUrl: string;
let close = () => {};

beforeAll(async () => {
  if (kind === "postgres") {
    const empty = await createEmptyPostgresDatabase();
    dropDatabase = empty.drop;
    handle = await openDatabase({ kind, url: empty.url }, { countQueries: true });
  } else {
    handle = await openDatabase({ kind: "pglite-memory" }, { countQueries: true });
  }
  const app = express();
  app.use(queryCountHeader);
  app.get("/some", async (_request, response) => {
    await handle.db.execute(sql`select pg_sleep(0.05)`);
    await handle.db.select().from(orders).limit(1);
    await handle.db.transaction(async (tx) => {
      await tx.select().from(orders).limit(1);
    });
    response.send("some");
  });
  app.get("/none", (_request, response) => {
    response.send("none");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(async () => {
  close();
  await handle.close();
  await dropDatabase();
});

describe(`the benchmark's query counter on ${kind}`, () => {
  it("tells each response its own number of SQL queries, even when requests overlap", async () => {
    const answers = await Promise.all(
      ["/some", "/none", "/some", "/none", "/some"].map((path) => fetch(`${baseUrl}${path}`)),
    );
    // The transaction's BEGIN and COMMIT are round trips of their own, and count.
    const some = "5";
    expect(answers.map((answer) => answer.headers.get(QUERY_COUNT_HEADER))).toEqual([some, "0", some, "0", some]);
  });

  it("counts nothing on a database opened without it", { timeout: 120_000 }, async () => {
    const plain = await openDatabase({ kind: "pglite-memory" });
    try {
      const app = express();
      app.use(queryCountHeader);
      app.get("/", async (_request, response) => {
        await plain.db.execute(sql`select 1`);
        response.send("ok");
      });
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      server.close();
      expect(answer.headers.get(QUERY_COUNT_HEADER)).toBe("0");
    } finally {
      await plain.close();
    }
  });
});
