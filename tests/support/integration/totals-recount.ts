import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "~/db/client.server";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import { dashboardStats, type DashboardStats } from "~/features/admin/stats.server";

interface GroupTotal {
  status: string;
  currency: string;
  orders: number;
  amount: number;
}

async function groupTotals(db: Database, query: ReturnType<typeof sql>): Promise<GroupTotal[]> {
  const result = (await db.execute(query)) as unknown as { rows: Record<keyof GroupTotal, string | number>[] };
  return result.rows.map((row) => ({
    status: String(row.status),
    currency: String(row.currency),
    orders: Number(row.orders),
    amount: Number(row.amount),
  }));
}

/** The dashboard's figures as the full scan before the summary tables computed them. */
async function recountedStats(db: Database): Promise<DashboardStats> {
  const confirmed = sql.join(
    PAID_ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    select (select count(*) from customers) as customers, count(*) as orders,
           coalesce(sum(amount) filter (where status in (${confirmed})), 0) as revenue
    from orders`)) as unknown as { rows: Record<keyof DashboardStats, string | number>[] };
  const [row] = result.rows;
  return { customers: Number(row!.customers), orders: Number(row!.orders), revenue: Number(row!.revenue) };
}

interface DayTotal {
  day: string;
  currency: string;
  status: string;
  airport: string | null;
  orders: string;
  amount: string;
}

/** The statistics' daily figures (summed over their slots) against the same figures counted from the orders. */
async function expectDaysToMatchRecount(db: Database) {
  const days = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: DayTotal[] }).rows.map((row) => ({
      ...row,
      orders: Number(row.orders),
      amount: Number(row.amount),
    }));
  const summarised = await days(sql`
    select to_char(day, 'YYYY-MM-DD') as day, currency, status, airport, sum(orders) as orders, sum(amount) as amount
    from order_days group by day, currency, status, airport having sum(orders) <> 0 or sum(amount) <> 0
    order by 1, 2, 3, 4 nulls first`);
  const recounted = await days(sql`
    select to_char(created_at at time zone ${COMPANY_TIME_ZONE}, 'YYYY-MM-DD') as day, currency, status, airport,
           count(*) as orders, sum(amount) as amount
    from orders group by 1, 2, 3, 4 order by 1, 2, 3, 4 nulls first`);
  expect(summarised).toEqual(recounted);
}

/**
 * Checks the summary tables against a full recount, per status and currency (not only the three
 * figures the dashboard shows) and per day and airport for the statistics, and returns the
 * dashboard's figures.
 */
export async function expectTotalsToMatchRecount(db: Database): Promise<DashboardStats> {
  const summarised = await groupTotals(
    db,
    sql`select status, currency, sum(orders) as orders, sum(amount) as amount from order_totals
        group by status, currency having sum(orders) <> 0 or sum(amount) <> 0 order by status, currency`,
  );
  const recounted = await groupTotals(
    db,
    sql`select status, currency, count(*) as orders, sum(amount) as amount from orders
        group by status, currency order by status, currency`,
  );
  expect(summarised).toEqual(recounted);
  await expectDaysToMatchRecount(db);
  const stats = await dashboardStats(db);
  expect(stats).toEqual(await recountedStats(db));
  return stats;
}
