import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { documentNumberSeries } from "~/db/schema";

/**
 * The statement that waits for the document-number series while `pay` pays with the series locked
 * by another transaction (PostgreSQL only): the one that holds the series, once it has it, until
 * its transaction ends.
 */
export async function waitingForTheSeries(db: Database, pay: () => Promise<unknown>) {
  let waiting: string | undefined;
  let paying: Promise<unknown> | undefined;
  await db.transaction(async (holder) => {
    await holder.execute(sql`lock table ${documentNumberSeries} in exclusive mode`);
    paying = pay();
    // Read outside this transaction, which would see the activity as it was at its first read.
    for (let tries = 0; !waiting && tries < 200; tries++) {
      const { rows } = (await db.execute(
        sql`select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )) as unknown as { rows: { query: string }[] };
      waiting = rows[0]?.query;
      if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
  await paying;
  return waiting;
}
