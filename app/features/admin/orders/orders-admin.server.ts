import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode, type OrderStatus } from "~/db/schema";
import { companyDayEnd, companyDayStart } from "./company-days.server";
import { ofCustomersMatching } from "../customer-search.server";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";
import { NO_ORDER_FILTERS, type OrderFilters, type OrderSearch } from "./order-filters";
import { withSearchTimeout } from "../search-timeout.server";

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

/** An order as a customer's page lists it. */
export type CustomerOrderRow = Pick<
  AdminOrderRow,
  "id" | "orderNumber" | "serviceType" | "amount" | "currency" | "status" | "createdAt"
>;

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
  return ofCustomersMatching(orders.customerId, search.text);
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

/** The page of /admin/orders: recentOrders, with a name or e-mail search cut short when it would take too long. */
export async function ordersListPage(db: Database, position: PagePosition, filters: OrderFilters): Promise<OrdersPage> {
  if (!filters.search || !("text" in filters.search)) return recentOrders(db, position, filters);
  return withSearchTimeout(db, (tx) => recentOrders(tx, position, filters));
}
