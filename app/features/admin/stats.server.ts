import { count, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders } from "~/db/schema";
import { CONFIRMED_ORDER_STATUSES } from "./order-status";

export interface DashboardStats {
  customers: number;
  orders: number;
  /** Sum of the amounts (minor units) of paid and completed orders; every currency has rate 1. */
  revenue: number;
}

/**
 * The dashboard's totals, computed by the database: no order or customer row leaves it. The order
 * count and the revenue share one pass over the orders (well under a second for a million, see bench/admin-pages.ts).
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [customerTotals] = await db.select({ count: count() }).from(customers);
  const [orderTotals] = await db
    .select({
      count: count(),
      revenue:
        sql<number>`coalesce(sum(${orders.amount}) filter (where ${inArray(orders.status, [...CONFIRMED_ORDER_STATUSES])}), 0)`.mapWith(
          Number,
        ),
    })
    .from(orders);
  return {
    customers: customerTotals?.count ?? 0,
    orders: orderTotals?.count ?? 0,
    revenue: orderTotals?.revenue ?? 0,
  };
}
