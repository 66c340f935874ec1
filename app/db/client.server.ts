import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";
import { acquireDataDirLock } from "./data-dir-lock.server";
import { migratePglite, migratePostgres } from "./migrate.server";
import { queryCounter } from "./query-count.server";

/** The Drizzle handle, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Round-trips a trivial query; rejects when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string }
  /** A throwaway in-memory PGlite, for tests. */
  | { kind: "pglite-memory" };

export interface OpenOptions {
  /** Count each request's queries (the benchmark's BENCH_COUNT_QUERIES); off by default. */
  countQueries?: boolean;
}

/** How Drizzle names columns in SQL; raw statements built outside a handle use it too. */
export const DRIZZLE_CASING = "snake_case";

const drizzleOptions = ({ countQueries = false }: OpenOptions) =>
  ({ schema, casing: DRIZZLE_CASING, ...(countQueries ? { logger: queryCounter } : {}) }) as const;

/** Opens the database and applies every pending migration before handing it out. */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<DatabaseHandle> {
  return target.kind === "postgres" ? openPostgres(target.url, options) : openPglite(target, options);
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server (a database restart) must not crash the process.
  pool.on("error", () => {});
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzlePg(pool, drizzleOptions(options));
  return {
    db,
    kind: "postgres",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

// The migrations create pg_trgm (PostgreSQL ships it as a contrib module; PGlite loads it on demand).
const PGLITE_OPTIONS = { extensions: { pg_trgm } };

async function openPglite(
  target: { kind: "pglite"; dataDir: string } | { kind: "pglite-memory" },
  options: OpenOptions,
): Promise<DatabaseHandle> {
  let releaseLock = () => {};
  let client: PGlite;
  if (target.kind === "pglite") {
    mkdirSync(target.dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(target.dataDir);
    try {
      client = await PGlite.create(target.dataDir, PGLITE_OPTIONS);
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    client = await PGlite.create(PGLITE_OPTIONS);
  }
  const close = async () => {
    await client.close();
    releaseLock();
  };
  try {
    await migratePglite(client);
  } catch (error) {
    await close();
    throw error;
  }
  const db = drizzlePglite(client, drizzleOptions(options));
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close,
  };
}

/** Where the environment says the database is: PostgreSQL when DATABASE_URL is set, else PGlite. */
export function databaseTargetFromEnv(config: { DATABASE_URL?: string; DATA_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL
    ? { kind: "postgres", url: config.DATABASE_URL }
    : { kind: "pglite", dataDir: config.DATA_DIR };
}

let current: DatabaseHandle | undefined;

/** Makes `handle` the process's database; the server does this once at boot. */
export function installDatabase(handle: DatabaseHandle | undefined) {
  current = handle;
}

/** The process's database handle, opened at boot. */
export function database(): DatabaseHandle {
  if (!current) throw new Error("The database is not open: the server opens it at boot.");
  return current;
}
