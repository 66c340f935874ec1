import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle, type DatabasePooler } from "~/db/client.server";
import { executePrepared, preparedStatement } from "~/db/prepared-statement.server";
import { WindowCounter } from "~/lib/window-counter.server";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../../support/test-database";

// Named prepared statements, which a transaction-mode pooler cannot carry (ADR 022).

const addOne = preparedStatement<{ sum: number }>("add_one", sql`select ${sql.placeholder("n")}::int + 1 as sum`);

describe.runIf(testDatabaseKind() === "postgres")("named statements on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;

  beforeAll(async () => {
    database = await createEmptyPostgresDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  /** The statements prepared in the session of a one-connection pool, after a rate-limit count and a prepared statement ran. */
  async function preparedAfterUse(pooler: DatabasePooler): Promise<string[]> {
    const handle: DatabaseHandle = await openDatabase({ kind: "postgres", url: database.url, poolSize: 1, pooler });
    try {
      expect(await addOne(handle.db, { n: 41 })).toEqual([{ sum: 42 }]);
      expect(await addOne(handle.db, { n: 1 })).toEqual([{ sum: 2 }]);
      const counter = new WindowCounter(handle.db, 60_000);
      expect((await counter.add(`key-${pooler}`, Date.now())).count).toBe(1);
      expect((await counter.add(`key-${pooler}`, Date.now())).count).toBe(2);
      // A statement built per call, its values parameters: one prepared statement for its one text.
      for (const n of [6, 7])
        expect(await executePrepared(handle.db, sql`select ${n}::int * 2 as twice`)).toEqual([{ twice: 2 * n }]);
      const { rows } = (await handle.db.execute(sql`select name from pg_prepared_statements order by name`)) as {
        rows: { name: string }[];
      };
      return rows.map((row) => row.name);
    } finally {
      await handle.close();
    }
  }

  it("prepares them once per connection when nothing sits between the app and PostgreSQL", async () => {
    expect(await preparedAfterUse("none")).toEqual([
      "add_one",
      "add_to_rate_limit_windows",
      expect.stringMatching(/^text_[\w-]{32}$/),
    ]);
  });

  it("sends every statement unnamed behind a transaction-mode pooler, with the same results", async () => {
    expect(await preparedAfterUse("transaction")).toEqual([]);
  });
});
