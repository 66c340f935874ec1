import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";

/**
 * Whether another connection can take the lock on row `id` of `table` now: on PostgreSQL a
 * transaction holding it makes NOWAIT fail at once; on the embedded database any open transaction
 * holds the one connection, and the query waits past the two seconds given.
 */
export async function rowLockIsFree(db: Database, table: PgTable, id: string): Promise<boolean> {
  const probe = db.execute(sql`select 1 from ${table} where id = ${id} for update nowait`).then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref());
  return Promise.race([probe, timeout]);
}
