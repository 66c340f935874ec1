import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";

export type TestDatabaseKind = "pglite" | "postgres";

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DB_KIND === "postgres" ? "postgres" : "pglite";
}

export interface TestDatabase extends DatabaseHandle {
  /** A URL for the same database (PostgreSQL only), for tests that need a second connection. */
  url?: string;
  /** Closes the handle and throws the database away. */
  destroy(): Promise<void>;
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An empty PostgreSQL database of its own, created next to TEST_DATABASE_URL's. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new PostgreSQL database
 * when the suite runs against PostgreSQL.
 */
export async function openTestDatabase(kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openDatabase({ kind: "pglite-memory" });
    return { ...handle, destroy: handle.close };
  }
  const empty = await createEmptyPostgresDatabase();
  const handle = await openDatabase({ kind: "postgres", url: empty.url });
  return {
    ...handle,
    url: empty.url,
    destroy: async () => {
      await handle.close();
      await empty.drop();
    },
  };
}
