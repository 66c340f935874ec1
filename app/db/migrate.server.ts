import { resolve } from "node:path";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePgDb } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";

const migrationsFolder = resolve("drizzle");

// Any fixed number works; it only has to be the same for every instance of this app.
const MIGRATION_LOCK_ID = 727_001;

/** Several instances may boot at once against one PostgreSQL: one migrates, the others wait. */
export async function migrate(pool: pg.Pool) {
  const connection = await pool.connect();
  try {
    await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migratePgDb(drizzlePg(connection), { migrationsFolder });
  } finally {
    await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    connection.release();
  }
}
