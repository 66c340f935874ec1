import { mkdirSync } from "node:fs";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";
import { acquireDataDirLock, refuseHalfRestored } from "./data-dir-lock.server";
import { migrate } from "./migrate.server";
import { PgliteThread } from "./pglite-thread.server";
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

/** What sits between the app and PostgreSQL: nothing (or a session-mode pooler), or a transaction-mode pooler. */
export type DatabasePooler = "none" | "transaction";

export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      /** Connections this process may hold at once; 10 unless given. */
      poolSize?: number;
      pooler?: DatabasePooler;
    }
  | { kind: "pglite"; dataDir: string }
  /** A throwaway in-memory PGlite, for tests. */
  | { kind: "pglite-memory" };

export interface OpenOptions {
  /** Count each request's queries (the benchmark's BENCH_COUNT_QUERIES); off by default. */
  countQueries?: boolean;
  /** The migrations to apply: this version's unless given (a test builds an older version's database). */
  migrations?: MigrationMeta[];
}

/** How Drizzle names columns in SQL; raw statements built outside a handle use it too. */
export const DRIZZLE_CASING = "snake_case";

const drizzleOptions = ({ countQueries = false }: OpenOptions) =>
  ({ schema, casing: DRIZZLE_CASING, ...(countQueries ? { logger: queryCounter } : {}) }) as const;

/** Opens the database and applies every pending migration before handing it out. */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<DatabaseHandle> {
  return target.kind === "postgres" ? openPostgres(target, options) : openPglite(target, options);
}

const DEFAULT_POOL_SIZE = 10;

function openPostgres(
  { url, poolSize = DEFAULT_POOL_SIZE, pooler = "none" }: Extract<DatabaseTarget, { kind: "postgres" }>,
  options: OpenOptions,
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    ...(pooler === "transaction" ? { Client: UnnamedStatementsClient } : {}),
  });
  return openPool(pool, "postgres", options, () => pool.end());
}

/**
 * Behind a transaction-mode pooler each transaction may run on another server connection, which
 * never saw a named statement's Parse ("prepared statement does not exist"), so every statement
 * goes unnamed there: parsed and planned again each time, which is what named statements saved
 * (ADR 022).
 */
class UnnamedStatementsClient extends pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    const named = typeof config === "object" && config !== null && "name" in config && !("submit" in config);
    const unnamed = named ? { ...config, name: undefined } : config;
    return (super.query as (...args: unknown[]) => never)(unnamed, values, callback);
  }
}

/**
 * PGlite runs on a thread of its own (ADR 021), reached through node-postgres over one connection
 * that stays open: PGlite is one backend, and its session (prepared statements) is that backend's.
 */
async function openPglite(
  target: { kind: "pglite"; dataDir: string } | { kind: "pglite-memory" },
  options: OpenOptions,
): Promise<DatabaseHandle> {
  let releaseLock = () => {};
  if (target.kind === "pglite") {
    mkdirSync(target.dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(target.dataDir);
    try {
      refuseHalfRestored(target.dataDir);
    } catch (error) {
      releaseLock();
      throw error;
    }
  }
  let thread: PgliteThread;
  try {
    thread = await PgliteThread.start(target.kind === "pglite" ? target.dataDir : undefined);
  } catch (error) {
    releaseLock();
    throw error;
  }
  // PGlite has one user and one database, which must be named.
  const pool = new pg.Pool({
    stream: thread.connect,
    user: "postgres",
    database: "postgres",
    max: 1,
    idleTimeoutMillis: 0,
  });
  return openPool(pool, "pglite", options, async () => {
    await pool.end();
    try {
      await thread.close();
    } finally {
      // Also when the thread had crashed and closing it fails: it has exited by then.
      releaseLock();
    }
  });
}

async function openPool(
  pool: pg.Pool,
  kind: DatabaseHandle["kind"],
  options: OpenOptions,
  close: () => Promise<void>,
): Promise<DatabaseHandle> {
  // A client losing its server (a restart, a failover, a pooler's server_lifetime, an operator's
  // pg_terminate_backend) emits "error", and an event without a listener ends the process. The pool
  // listens on idle clients only, so every client gets a listener for its whole life: checked out,
  // the query in flight fails instead (a 503, `isDatabaseUnavailable`), and the pool drops the client.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await migrate(pool, options.migrations);
  } catch (error) {
    await close();
    throw error;
  }
  const db = drizzle(pool, drizzleOptions(options));
  if (kind === "pglite") embedded.add(db);
  return {
    db,
    kind,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close,
  };
}

const embedded = new WeakSet<Database>();

/**
 * Whether `db` is the embedded database, whose one backend runs one statement at a time (ADR 021):
 * there, statements that arrive together are worth grouping into one. A transaction's handle is not.
 */
export function isEmbedded(db: Database): boolean {
  return embedded.has(db);
}

/** Where the environment says the database is: PostgreSQL when DATABASE_URL is set, else PGlite. */
export function databaseTargetFromEnv(config: {
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_POOLER: DatabasePooler;
  DATA_DIR: string;
}): DatabaseTarget {
  return config.DATABASE_URL
    ? {
        kind: "postgres",
        url: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        pooler: config.DATABASE_POOLER,
      }
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
