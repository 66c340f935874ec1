import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargetFromEnv, openDatabase } from "~/db/client.server";
import { parseEnv } from "~/env.server";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../../support/test-database";

// DATABASE_POOL_SIZE: the connections one process may hold (docs/configuration.md, "Connection pooling").

describe.runIf(testDatabaseKind() === "postgres")("DATABASE_POOL_SIZE on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;

  beforeAll(async () => {
    database = await createEmptyPostgresDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it("holds no more connections than it says, however many queries wait", async () => {
    const handle = await openDatabase(
      databaseTargetFromEnv(parseEnv({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: "2", NODE_ENV: "test" })),
    );
    try {
      const backends = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const result = (await handle.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.2)`)) as {
            rows: { pid: number }[];
          };
          return result.rows[0]!.pid;
        }),
      );
      expect(new Set(backends).size).toBe(2);
    } finally {
      await handle.close();
    }
  });
});
