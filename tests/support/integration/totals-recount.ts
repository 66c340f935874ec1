import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "~/db/client.server";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { CHARGED_ORDER_STATUSES, PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import type { CurrencyRevenue } from "~/features/admin/revenue";
import { revenueByCurrency } from "~/features/admin/revenue.server";
import {
  dashboardTotals,
  membershipFigures,
  type DashboardTotals,
  type MembershipFigures,
} from "~/features/admin/dashboard/dashboard-totals.server";
import { RECURRING_MEMBERSHIP_STATUSES } from "~/features/memberships/membership-status";

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
async function recountedStats(db: Database): Promise<DashboardTotals> {
  const confirmed = sql.join(
    PAID_ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    select (select count(*) from customers) as customers, count(*) as orders,
           coalesce(sum(amount) filter (where status in (${confirmed})), 0) as revenue
    from orders`)) as unknown as { rows: Record<keyof DashboardTotals, string | number>[] };
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
  free_accesses: string;
}

/**
 * The statistics' daily figures (summed over their slots) against the same figures counted from the
 * orders: orders, money, and the free accesses of those that spent a membership's allowance.
 */
async function expectDaysToMatchRecount(db: Database) {
  const days = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: DayTotal[] }).rows.map((row) => ({
      ...row,
      orders: Number(row.orders),
      amount: Number(row.amount),
      free_accesses: Number(row.free_accesses),
    }));
  const summarised = await days(sql`
    select to_char(day, 'YYYY-MM-DD') as day, currency, status, airport, sum(orders) as orders, sum(amount) as amount,
           sum(free_accesses) as free_accesses
    from order_days group by day, currency, status, airport
    having sum(orders) <> 0 or sum(amount) <> 0 or sum(free_accesses) <> 0
    order by 1, 2, 3, 4 nulls first`);
  const recounted = await days(sql`
    select to_char(created_at at time zone ${COMPANY_TIME_ZONE}, 'YYYY-MM-DD') as day, currency, status, airport,
           count(*) as orders, sum(amount) as amount,
           coalesce(sum(free_accesses) filter (where allowance_membership_id is not null), 0) as free_accesses
    from orders group by 1, 2, 3, 4 order by 1, 2, 3, 4 nulls first`);
  expect(summarised).toEqual(recounted);
}

async function rowsOf<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const numbers = <T extends Record<string, unknown>>(row: T, keys: (keyof T)[]) => ({
  ...row,
  ...Object.fromEntries(keys.map((key) => [key, Number(row[key])])),
});

/**
 * The membership summaries against a full recount: members and recurring fees per status, plan and
 * currency; changes per Amsterdam day, pair of statuses, plan and plan before; and the dashboard's
 * membership figures.
 */
export async function expectMembershipFiguresToMatchRecount(db: Database): Promise<MembershipFigures> {
  const totals = (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, string | number>>(db, query).then((rows) =>
      rows.map((row) => numbers(row, ["members", "recurring"])),
    );
  const recurringStatuses = sql.join(
    RECURRING_MEMBERSHIP_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  expect(
    await totals(sql`
      select status, plan, currency, sum(members) as members, sum(recurring) as recurring from membership_totals
      group by status, plan, currency having sum(members) <> 0 or sum(recurring) <> 0 order by 1, 2, 3`),
  ).toEqual(
    await totals(sql`
      select status, plan, currency, count(*) as members,
             coalesce(sum(price) filter (where status in (${recurringStatuses}) and not cancel_at_period_end), 0) as recurring
      from memberships group by status, plan, currency order by 1, 2, 3`),
  );

  const days = (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, string | number | null>>(db, query).then((rows) =>
      rows.map((row) => numbers(row, ["events"])),
    );
  expect(
    await days(sql`
      select to_char(day, 'YYYY-MM-DD') as day, from_status, to_status, plan, from_plan, sum(events) as events
      from membership_days group by day, from_status, to_status, plan, from_plan having sum(events) <> 0
      order by 1, 2 nulls first, 3, 4, 5 nulls first`),
  ).toEqual(
    await days(sql`
      select to_char(created_at at time zone ${COMPANY_TIME_ZONE}, 'YYYY-MM-DD') as day, from_status, to_status,
             plan, from_plan, count(*) as events
      from membership_events group by 1, 2, 3, 4, 5 order by 1, 2 nulls first, 3, 4, 5 nulls first`),
  );

  const figures = await membershipFigures(db);
  const byStatus = await rowsOf<{ status: string; members: string | number }>(
    db,
    sql`select status, count(*) as members from memberships group by status`,
  );
  const byCurrency = await rowsOf<{ currency: string; amount: string | number }>(
    db,
    sql`select currency, sum(price) as amount from memberships
        where status in (${recurringStatuses}) and not cancel_at_period_end group by currency`,
  );
  expect(new Map(figures.members.filter((row) => row.members > 0).map((row) => [row.status, row.members]))).toEqual(
    new Map(byStatus.map((row) => [row.status, Number(row.members)])),
  );
  const byStatusAndPlan = await rowsOf<{ status: string; plan: string; members: string | number }>(
    db,
    sql`select status, plan, count(*) as members from memberships group by status, plan`,
  );
  expect(
    new Map(
      figures.members.flatMap((row) =>
        row.byPlan.filter((cell) => cell.members > 0).map((cell) => [`${row.status}/${cell.plan}`, cell.members]),
      ),
    ),
  ).toEqual(new Map(byStatusAndPlan.map((row) => [`${row.status}/${row.plan}`, Number(row.members)])));
  expect(new Map(figures.recurring.map((row) => [row.currency, row.amount]))).toEqual(
    new Map(byCurrency.map((row) => [row.currency, Number(row.amount)])),
  );
  return figures;
}

/**
 * The fees' and refunds' summaries (per kind and currency; per Amsterdam day, kind and currency)
 * against sums over the invoices and refunds, and the dashboard's fast tracks, fees, refunds and net
 * per currency against the same sums with the charged orders. Returns the dashboard's figures.
 */
export async function expectRevenueToMatchRecount(db: Database): Promise<CurrencyRevenue[]> {
  const entries = sql`
    select to_char(coalesce(paid_at, created_at) at time zone ${COMPANY_TIME_ZONE}, 'YYYY-MM-DD') as day,
           'fee' as kind, currency, amount
    from invoices where status in ('paid', 'refunded')
    union all
    select to_char(created_at at time zone ${COMPANY_TIME_ZONE}, 'YYYY-MM-DD'),
           case when order_id is null then 'fee_refund' else 'order_refund' end, currency, amount
    from refunds where status = 'done'`;
  const amounts = (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, string | number>>(db, query).then((rows) => rows.map((row) => numbers(row, ["amount"])));
  expect(
    await amounts(sql`
      select kind, currency, sum(amount) as amount from revenue_totals
      group by kind, currency having sum(amount) <> 0 order by 1, 2`),
  ).toEqual(
    await amounts(sql`select kind, currency, sum(amount) as amount from (${entries}) e group by 1, 2 order by 1, 2`),
  );
  expect(
    await amounts(sql`
      select to_char(day, 'YYYY-MM-DD') as day, kind, currency, sum(amount) as amount from revenue_days
      group by day, kind, currency having sum(amount) <> 0 order by 1, 2, 3`),
  ).toEqual(
    await amounts(
      sql`select day, kind, currency, sum(amount) as amount from (${entries}) e group by 1, 2, 3 order by 1, 2, 3`,
    ),
  );

  const charged = sql.join(
    CHARGED_ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const recounted = await rowsOf<{ currency: string; fastTracks: string; fees: string; refunds: string }>(
    db,
    sql`
      select currency,
             coalesce(sum(amount) filter (where kind = 'fast_track'), 0) as "fastTracks",
             coalesce(sum(amount) filter (where kind = 'fee'), 0) as fees,
             coalesce(sum(amount) filter (where kind like '%refund'), 0) as refunds
      from (select currency, 'fast_track' as kind, amount from orders where status in (${charged})
            union all select currency, kind, amount from (${entries}) e) money
      group by currency`,
  );
  const figures = await revenueByCurrency(db);
  expect(new Map(figures.map((row) => [row.currency, row]))).toEqual(
    new Map(
      recounted
        .map(({ currency, ...row }) => ({
          currency,
          fastTracks: Number(row.fastTracks),
          fees: Number(row.fees),
          refunds: Number(row.refunds),
        }))
        .filter((row) => row.fastTracks || row.fees || row.refunds)
        .map((row) => [row.currency, { ...row, net: row.fastTracks + row.fees - row.refunds }]),
    ),
  );
  return figures;
}

/**
 * Checks the summary tables against a full recount, per status and currency (not only the three
 * figures the dashboard shows) and per day and airport for the statistics, the membership
 * summaries too, and returns the dashboard's order figures.
 */
export async function expectTotalsToMatchRecount(db: Database): Promise<DashboardTotals> {
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
  await expectMembershipFiguresToMatchRecount(db);
  await expectRevenueToMatchRecount(db);
  const stats = await dashboardTotals(db);
  expect(stats).toEqual(await recountedStats(db));
  return stats;
}
