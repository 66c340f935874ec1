import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

/** A search too broad to answer in time: its customers have thousands of rows, few or none of which pass the other filters. */
export class SearchTooBroadError extends Error {
  override name = "SearchTooBroadError";
}

/**
 * Most searches take milliseconds, but one matching many customers whose rows the other filters
 * then nearly all exclude can walk every row: PostgreSQL gives up after this long instead. Ten
 * times what a narrow search takes on a million rows, so that a busy server does not cut those short.
 */
const SEARCH_TIMEOUT = "500ms";

const QUERY_CANCELED = "57014";

function isQueryCanceled(error: unknown): boolean {
  const cause = error instanceof Error && error.cause ? error.cause : error;
  return typeof cause === "object" && cause !== null && (cause as { code?: unknown }).code === QUERY_CANCELED;
}

/** `search` run in a transaction of its own that PostgreSQL cuts short after SEARCH_TIMEOUT: then SearchTooBroadError. */
export async function withSearchTimeout<T>(db: Database, search: (tx: Database) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = '${SEARCH_TIMEOUT}'`));
      return search(tx);
    });
  } catch (error) {
    if (isQueryCanceled(error)) throw new SearchTooBroadError();
    throw error;
  }
}
