import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode, type OrderStatus } from "~/db/schema";
import { companyDayEnd, companyDayStart } from "./company-days.server";
import { customerNameOrEmailContains } from "./customer-search.server";
import { keysetPaging, type KeysetPage, type PagePosition } from "./keyset.server";
import { NO_ORDER_FILTERS, type OrderFilters, type OrderSearch } from "./order-filters";

export const RECENT_ORDERS_PAGE_SIZE = 25;

export interface AdminOrderRow {
  id: string;
  orderNumber: string;
  customerName: string | null;
  customerEmail: string | null;
  serviceType: string;
  airport: string | null;
  flightDate: string | null;
  adults: number;
  children: number;
  amount: number;
  currency: CurrencyCode;
  status: OrderStatus;
  createdAt: Date;
}

export type OrdersPage = KeysetPage<AdminOrderRow>;

/** The order columns every admin list of orders shows (OrdersList). */
export const orderListColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  serviceType: orders.serviceType,
  amount: orders.amount,
  currency: orders.currency,
  status: orders.status,
  createdAt: orders.createdAt,
};

function searchCondition(search: OrderSearch): SQL {
  if ("orderNumber" in search) return eq(orders.orderNumber, search.orderNumber);
  // The customers are found first, through the trigram indexes; their orders then by orders.customer_id.
  const matchingCustomers = sql`select ${customers.id} from ${customers} where ${customerNameOrEmailContains(search.text)}`;
  return sql`${orders.customerId} in (${matchingCustomers})`;
}

function filterConditions({ status, from, to, search }: OrderFilters): SQL[] {
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(orders.status, status));
  if (from) conditions.push(gte(orders.createdAt, companyDayStart(from)));
  if (to) conditions.push(lt(orders.createdAt, companyDayEnd(to)));
  if (search) conditions.push(searchCondition(search));
  return conditions;
}

/**
 * One page of orders, newest first, with the customer, among those matching `filters`. Keyset
 * pagination on (created_at, id): each page costs the same however deep it is, with a million
 * orders or more.
 */
export async function recentOrders(
  db: Database,
  position: PagePosition,
  filters: OrderFilters = NO_ORDER_FILTERS,
  pageSize = RECENT_ORDERS_PAGE_SIZE,
): Promise<OrdersPage> {
  const paging = keysetPaging(orders, position, pageSize);
  const fetched = await db
    .select({
      ...orderListColumns,
      customerName: customers.fullName,
      customerEmail: customers.email,
      airport: orders.airport,
      flightDate: orders.flightDate,
      adults: orders.adults,
      children: orders.children,
      cursor: paging.cursor,
    })
    .from(orders)
    .leftJoin(customers, eq(customers.id, orders.customerId))
    .where(and(...filterConditions(filters), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}

/** Every order matching `filters`, newest first, a batch at a time: never all of them in memory. */
export async function* allOrdersMatching(db: Database, filters: OrderFilters, batchSize = 1000) {
  let position: PagePosition = null;
  do {
    const page = await recentOrders(db, position, filters, batchSize);
    yield page.rows;
    position = page.next ? { after: page.next } : null;
  } while (position);
}

/** A search too broad to answer in time: its customers have thousands of orders, few or none of which pass the other filters. */
export class SearchTooBroadError extends Error {
  override name = "SearchTooBroadError";
}

/**
 * Most searches take milliseconds, but one matching many customers whose orders the other filters
 * then nearly all exclude can walk every order: PostgreSQL gives up after this long instead. Ten
 * times what a narrow search takes on a million orders, so that a busy server does not cut those short.
 */
const SEARCH_TIMEOUT = "500ms";

const QUERY_CANCELED = "57014";

function isQueryCanceled(error: unknown): boolean {
  const cause = error instanceof Error && error.cause ? error.cause : error;
  return typeof cause === "object" && cause !== null && (cause as { code?: unknown }).code === QUERY_CANCELED;
}

/** The page of /admin/orders: recentOrders, with a name or e-mail search cut short when it would take too long. */
export async function ordersListPage(db: Database, position: PagePosition, filters: OrderFilters): Promise<OrdersPage> {
  if (!filters.search || !("text" in filters.search)) return recentOrders(db, position, filters);
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = '${SEARCH_TIMEOUT}'`));
      return recentOrders(tx, position, filters);
    });
  } catch (error) {
    if (isQueryCanceled(error)) throw new SearchTooBroadError();
    throw error;
  }
}
