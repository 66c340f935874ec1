import { resolve } from "node:path";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import type pg from "pg";

const migrationsFolder = resolve("drizzle");

/** This version's migrations (drizzle/ and its journal), oldest first. */
export function knownMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder });
}

// Any fixed number works; it only has to be the same for every instance of this app.
const MIGRATION_LOCK_ID = 727_001;

/**
 * Applies the pending migrations in one transaction, with Drizzle's bookkeeping table (the same one
 * `drizzle-kit` reads). Several instances may boot at once against one PostgreSQL: the first takes the
 * transaction's advisory lock and migrates, the others wait for its commit and find nothing left.
 * The lock is the transaction's, not the session's, so it holds through a transaction-mode pooler
 * (ADR 022), where a session lock could stay behind on a server connection nobody unlocks.
 */
export async function migrate(pool: pg.Pool, migrations = knownMigrations()) {
  const connection = await pool.connect();
  let failure: Error | undefined;
  try {
    await connection.query("begin");
    await connection.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    await connection.query("create schema if not exists drizzle");
    await connection.query(
      "create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)",
    );
    const { rows } = await connection.query<{ created_at: string }>(
      "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
    );
    const lastApplied = rows[0] ? Number(rows[0].created_at) : -Infinity;
    for (const migration of migrations) {
      if (migration.folderMillis <= lastApplied) continue;
      for (const statement of migration.sql) await connection.query(statement);
      await connection.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)", [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await connection.query("commit");
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await connection.query("rollback").catch(() => {});
    throw error;
  } finally {
    // A connection that failed mid-migration is not handed out again.
    connection.release(failure);
  }
}
