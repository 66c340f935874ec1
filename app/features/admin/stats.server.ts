import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customerTotals, orderTotals } from "~/db/schema";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";

export interface DashboardStats {
  customers: number;
  orders: number;
  /** Sum of the amounts (minor units) of paid and completed orders; every currency has rate 1. */
  revenue: number;
}

/** A sum over the summary rows (all their slots), 0 when there are none. */
const sumOrZero = (sum: SQL) => sql<number>`coalesce(${sum}, 0)`.mapWith(Number);

/**
 * The dashboard's totals, read from the summary tables the database keeps up to date (migration
 * 0004, ADR 011): a few dozen rows, however many orders and customers there are.
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [customerTotal] = await db
    .select({ count: sumOrZero(sql`sum(${customerTotals.customers})`) })
    .from(customerTotals);
  const [orderTotal] = await db
    .select({
      count: sumOrZero(sql`sum(${orderTotals.orders})`),
      revenue: sumOrZero(
        sql`sum(${orderTotals.amount}) filter (where ${inArray(orderTotals.status, [...PAID_ORDER_STATUSES])})`,
      ),
    })
    .from(orderTotals);
  return {
    customers: customerTotal?.count ?? 0,
    orders: orderTotal?.count ?? 0,
    revenue: orderTotal?.revenue ?? 0,
  };
}
