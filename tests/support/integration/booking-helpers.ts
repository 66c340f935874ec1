import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { installDatabase, type Database } from "~/db/client.server";
import { openTestDatabase, type TestDatabase } from "../test-database";

export { bookingFormFields, bookingInput, futureDate } from "../booking-fields";

export function postRequest(path: string, fields: Record<string, string>, cookie?: string): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: cookie ? { Cookie: cookie } : {},
  });
}

/** What a loader or action answered, whether a Response (redirect) or `data()`. */
export function answer<T>(result: unknown): { status: number; headers: Headers; data: T } {
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: undefined as T };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const init = result.init as ResponseInit | null;
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data: result.data as T };
  }
  return { status: 200, headers: new Headers(), data: result as T };
}

const BOOKING_TABLES = [
  "customers",
  "orders",
  "order_events",
  "payments",
  "outbox",
  "memberships",
  "membership_events",
  "invoices",
  "refunds",
  "hosted_payments",
  "provider_events",
  "withdrawals",
] as const;

/** How many rows each booking-related table holds. */
export async function rowCounts(db: Database): Promise<Record<(typeof BOOKING_TABLES)[number], number>> {
  const entries = await Promise.all(
    BOOKING_TABLES.map(async (table) => {
      const result = (await db.execute(sql.raw(`select count(*) as count from ${table}`))) as {
        rows: { count: number | string }[];
      };
      return [table, Number(result.rows[0]!.count)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<(typeof BOOKING_TABLES)[number], number>;
}

export async function emptyBookingTables(db: Database) {
  await db.execute(sql.raw(`truncate ${BOOKING_TABLES.join(", ")} cascade`));
}

/**
 * A fresh database for the test file, installed as the process's database (for route modules)
 * with the booking tables emptied before each test. Returns its Drizzle handle.
 */
export function bookingTestDatabase(): () => Database {
  let handle: TestDatabase | undefined;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    installDatabase(undefined);
    await handle?.destroy();
  });
  beforeEach(async () => {
    installDatabase(handle);
    await emptyBookingTables(handle!.db);
  });
  return () => handle!.db;
}
