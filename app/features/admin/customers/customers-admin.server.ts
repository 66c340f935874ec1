import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { CURRENCY_CODES, customers, orders, user, type CurrencyCode } from "~/db/schema";
import { isAnonymisedCustomer } from "~/features/privacy/customer-removal.server";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import { customerNameOrEmailContains } from "../customer-search.server";
import { orderListColumns, type CustomerOrderRow } from "../orders/orders-admin.server";

export const CUSTOMERS_PAGE_SIZE = 25;
export const CUSTOMER_ORDERS_PAGE_SIZE = 25;

/** What a customer paid in one currency (minor units): amounts in different currencies are never added. */
export interface PaidTotal {
  currency: CurrencyCode;
  amount: number;
}

export interface OrderTotals {
  orders: number;
  /** One entry per currency the customer paid in, in the site's currency order. */
  paid: PaidTotal[];
}

export interface CustomerSummary extends OrderTotals {
  id: string;
  name: string;
  email: string | null;
  /** Erased at their request or by the retention rules: the row names no one any more. */
  anonymised: boolean;
  createdAt: Date;
}

export type CustomersPage = KeysetPage<CustomerSummary>;

export interface CustomerDetails extends CustomerSummary {
  notes: string | null;
  /** The site account the customer booked from; null for a guest. */
  accountEmail: string | null;
  accountCreatedAt: Date | null;
}

const NO_ORDERS: OrderTotals = { orders: 0, paid: [] };

const summaryColumns = {
  id: customers.id,
  name: customers.fullName,
  email: customers.email,
  anonymised: sql<boolean>`${isAnonymisedCustomer}`,
  createdAt: customers.createdAt,
};

/** How many orders each of these customers has and what they paid, per currency, computed for them alone. */
async function orderTotals(db: Database, customerIds: string[]): Promise<Map<string, OrderTotals>> {
  const totals = new Map<string, OrderTotals>();
  if (customerIds.length === 0) return totals;
  const rows = await db
    .select({
      customerId: orders.customerId,
      currency: orders.currency,
      orders: sql<number>`count(*)`.mapWith(Number),
      paid: sql<number>`coalesce(sum(${orders.amount}) filter (where ${inArray(orders.status, [...PAID_ORDER_STATUSES])}), 0)`.mapWith(
        Number,
      ),
    })
    .from(orders)
    .where(inArray(orders.customerId, customerIds))
    .groupBy(orders.customerId, orders.currency);
  rows.sort((a, b) => CURRENCY_CODES.indexOf(a.currency) - CURRENCY_CODES.indexOf(b.currency));
  for (const row of rows) {
    const total = totals.get(row.customerId) ?? { orders: 0, paid: [] };
    total.orders += row.orders;
    if (row.paid > 0) total.paid.push({ currency: row.currency, amount: row.paid });
    totals.set(row.customerId, total);
  }
  return totals;
}

/**
 * One page of customers, newest first, optionally only those whose name or e-mail contains
 * `search`, each with their order count and what they paid.
 */
export async function listCustomers(
  db: Database,
  {
    search,
    position,
    pageSize = CUSTOMERS_PAGE_SIZE,
  }: { search: string | null; position: PagePosition; pageSize?: number },
): Promise<CustomersPage> {
  const paging = keysetPaging(customers, position, pageSize);
  const fetched = await db
    .select({ ...summaryColumns, cursor: paging.cursor })
    .from(customers)
    .where(and(search ? customerNameOrEmailContains(search) : undefined, paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  const page = paging.page(fetched);
  const totals = await orderTotals(
    db,
    page.rows.map((row) => row.id),
  );
  return { ...page, rows: page.rows.map((row) => ({ ...row, ...(totals.get(row.id) ?? NO_ORDERS) })) };
}

/** A customer with their totals; null when there is none with this id. */
export async function findCustomer(db: Database, customerId: string): Promise<CustomerDetails | null> {
  const [found] = await db
    .select({
      ...summaryColumns,
      notes: customers.notes,
      accountEmail: user.email,
      accountCreatedAt: user.createdAt,
    })
    .from(customers)
    // The account that booked, or else the one with the customer's address (signed up, or signed in
    // with an e-mail code): the same person either way.
    .leftJoin(user, or(eq(user.id, customers.userId), eq(sql`lower(${user.email})`, customers.email)))
    .where(eq(customers.id, customerId))
    .orderBy(sql`${user.id} = ${customers.userId} desc nulls last`)
    .limit(1);
  if (!found) return null;
  const totals = await orderTotals(db, [found.id]);
  return { ...found, ...(totals.get(found.id) ?? NO_ORDERS) };
}

/** One page of a customer's orders, newest first. */
export async function customerOrders(
  db: Database,
  customerId: string,
  position: PagePosition,
  pageSize = CUSTOMER_ORDERS_PAGE_SIZE,
): Promise<KeysetPage<CustomerOrderRow>> {
  const paging = keysetPaging(orders, position, pageSize);
  const fetched = await db
    .select({ ...orderListColumns, cursor: paging.cursor })
    .from(orders)
    .where(and(eq(orders.customerId, customerId), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}
