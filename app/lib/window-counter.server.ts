import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimit } from "~/db/schema";

/** A key's count once a request was added to it, and when its window began. */
export interface WindowCount {
  count: number;
  windowStart: number;
}

interface Waiting {
  key: string;
  now: number;
  resolve(count: WindowCount): void;
  reject(error: unknown): void;
}

/**
 * Adds every key's requests in one upsert, keys in sorted order so that two statements lock rows
 * alike and cannot deadlock. A key whose window is over starts again from its new requests.
 */
function prepareAddToWindows(db: Database) {
  const windowOver = sql`${rateLimit.lastRequest} <= excluded.last_request - ${sql.placeholder("windowMs")}::bigint`;
  return db
    .insert(rateLimit)
    .select(
      sql`select gen_random_uuid()::text, key, requests, now
        from unnest(${sql.placeholder("keys")}::text[], ${sql.placeholder("requests")}::integer[], ${sql.placeholder("nows")}::bigint[])
          as added (key, requests, now)
        order by key`,
    )
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${windowOver} then excluded.count else ${rateLimit.count} + excluded.count end`,
        lastRequest: sql`case when ${windowOver} then excluded.last_request else ${rateLimit.lastRequest} end`,
      },
    })
    .returning({ key: rateLimit.key, count: rateLimit.count, windowStart: rateLimit.lastRequest })
    .prepare("add_to_rate_limit_windows");
}

/**
 * Fixed-window request counters in `rate_limit`, shared by every instance on the database. The
 * requests added while a statement is under way wait for it and then go together in the next one:
 * a quiet server sends each request's count at once, a busy one counts many requests in one
 * statement instead of one statement each. Every request still gets its own place in its window,
 * exactly as if it had been counted alone.
 */
export class WindowCounter {
  readonly #windowMs: number;
  readonly #addToWindows: ReturnType<typeof prepareAddToWindows>;
  #waiting: Waiting[] = [];
  #sending = false;

  constructor(db: Database, windowMs: number) {
    this.#windowMs = windowMs;
    this.#addToWindows = prepareAddToWindows(db);
  }

  /** Adds one request at `now` (milliseconds) to `key`'s window. */
  add(key: string, now: number): Promise<WindowCount> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key, now, resolve, reject });
      if (!this.#sending) void this.#sendWaiting();
    });
  }

  async #sendWaiting() {
    this.#sending = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      await this.#send(batch);
    }
    this.#sending = false;
  }

  async #send(batch: Waiting[]) {
    const byKey = new Map<string, Waiting[]>();
    for (const waiting of batch) {
      const sameKey = byKey.get(waiting.key);
      if (sameKey) sameKey.push(waiting);
      else byKey.set(waiting.key, [waiting]);
    }
    try {
      const keys = [...byKey.keys()];
      const rows = await this.#addToWindows.execute({
        keys,
        requests: keys.map((key) => byKey.get(key)!.length),
        nows: keys.map((key) => Math.max(...byKey.get(key)!.map((waiting) => waiting.now))),
        windowMs: this.#windowMs,
      });
      const counted = new Map(rows.map((row) => [row.key, row]));
      for (const [key, requests] of byKey) {
        const row = counted.get(key);
        if (!row) throw new Error(`The count of ${key} did not come back`);
        // The key's requests in this statement took the last places in its window, in their order.
        requests.forEach((request, index) =>
          request.resolve({ count: row.count - requests.length + 1 + index, windowStart: row.windowStart }),
        );
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}

const counters = new WeakMap<Database, Map<number, WindowCounter>>();

/** The process's counter of `windowMs`-long windows on `db`. */
export function windowCounter(db: Database, windowMs: number): WindowCounter {
  let byWindow = counters.get(db);
  if (!byWindow) counters.set(db, (byWindow = new Map()));
  let counter = byWindow.get(windowMs);
  if (!counter) byWindow.set(windowMs, (counter = new WindowCounter(db, windowMs)));
  return counter;
}
