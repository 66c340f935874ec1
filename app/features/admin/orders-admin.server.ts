import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode } from "~/db/schema";

export const RECENT_ORDERS_PAGE_SIZE = 25;

export interface AdminOrderRow {
  id: string;
  orderNumber: string;
  customerName: string | null;
  serviceType: string;
  amount: number;
  currency: CurrencyCode;
  status: string;
  createdAt: Date;
}

export interface OrdersPage {
  rows: AdminOrderRow[];
  /** Cursors for the pages after (older) and before (newer) this one; null at either end. */
  next: string | null;
  previous: string | null;
}

/** Where a page starts: after a cursor (older orders), before one (newer), or at the newest order. */
export type PagePosition = { after: string } | { before: string } | null;

interface Cursor {
  /** created_at to the microsecond, as PostgreSQL writes it: a JavaScript Date would lose precision. */
  createdAt: string;
  id: string;
}

const CURSOR_PATTERN =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function parseCursor(value: string): Cursor | null {
  const match = CURSOR_PATTERN.exec(value);
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

/** The position asked for by the page's query string (`?after=` or `?before=`); anything unreadable means the first page. */
export function pagePositionFromSearch(params: URLSearchParams): PagePosition {
  const after = params.get("after");
  if (after && parseCursor(after)) return { after };
  const before = params.get("before");
  if (before && parseCursor(before)) return { before };
  return null;
}

const createdAtText = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** created_at then id, so that orders created in the same microsecond still have one order. */
function comparedWith(cursor: Cursor, operator: "<" | ">"): SQL {
  return sql`(${orders.createdAt}, ${orders.id}) ${sql.raw(operator)} (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}

/**
 * One page of orders, newest first, with the customer's name. Keyset pagination on
 * (created_at, id): each page costs the same however deep it is, with a million orders or more.
 */
export async function recentOrders(
  db: Database,
  position: PagePosition,
  pageSize = RECENT_ORDERS_PAGE_SIZE,
): Promise<OrdersPage> {
  const backwards = position !== null && "before" in position;
  const cursorText = position === null ? null : "after" in position ? position.after : position.before;
  const cursor = cursorText ? parseCursor(cursorText) : null;

  const fetched = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      customerName: customers.companyName,
      serviceType: orders.serviceType,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      createdAt: orders.createdAt,
      cursorCreatedAt: createdAtText,
    })
    .from(orders)
    .leftJoin(customers, eq(customers.id, orders.customerId))
    .where(cursor ? comparedWith(cursor, backwards ? ">" : "<") : undefined)
    .orderBy(...(backwards ? [asc(orders.createdAt), asc(orders.id)] : [desc(orders.createdAt), desc(orders.id)]))
    .limit(pageSize + 1);

  const more = fetched.length > pageSize;
  const page = fetched.slice(0, pageSize);
  if (backwards) page.reverse();
  const cursorOf = (row: (typeof page)[number] | undefined) => (row ? `${row.cursorCreatedAt}_${row.id}` : null);
  const rows = page.map(({ cursorCreatedAt: _cursor, ...row }) => row);
  return {
    rows,
    next: backwards || more ? cursorOf(page.at(-1)) : null,
    previous: cursor && (!backwards || more) ? cursorOf(page[0]) : null,
  };
}
