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

/** The dashboard's totals, each one aggregate query: no order or customer row leaves the database. */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [customerCount] = await db.select({ value: count() }).from(customers);
  const [orderCount] = await db.select({ value: count() }).from(orders);
  const [revenue] = await db
    .select({ value: sql<number>`coalesce(sum(${orders.amount}), 0)`.mapWith(Number) })
    .from(orders)
    .where(inArray(orders.status, [...CONFIRMED_ORDER_STATUSES]));
  return { customers: customerCount?.value ?? 0, orders: orderCount?.value ?? 0, revenue: revenue?.value ?? 0 };
}
