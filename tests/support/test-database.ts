import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type OpenOptions } from "~/db/client.server";

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

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An empty PostgreSQL database of its own, created next to `serverUrl`'s (TEST_DATABASE_URL's by default). */
export async function createEmptyPostgresDatabase(
  serverUrl = process.env.TEST_DATABASE_URL,
  prefix = "test",
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => {},
      ),
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new PostgreSQL database
 * when the suite runs against PostgreSQL.
 */
export async function openTestDatabase(
  kind: TestDatabaseKind = testDatabaseKind(),
  options: OpenOptions = {},
): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openDatabase({ kind: "pglite-memory" }, options);
    return { ...handle, destroy: handle.close };
  }
  const empty = await createEmptyPostgresDatabase();
  const handle = await openDatabase({ kind: "postgres", url: empty.url }, options);
  return {
    ...handle,
    url: empty.url,
    destroy: async () => {
      await handle.close();
      await empty.drop();
    },
  };
}
