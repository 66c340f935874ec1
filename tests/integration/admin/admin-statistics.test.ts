import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { invoices, memberships, orders, refunds } from "~/db/schema";
import { ORDER_STATUSES } from "~/db/schema";
import type { MembershipStatistics } from "~/features/admin/statistics/statistics-memberships.server";
import type { PlanStatistics } from "~/features/admin/statistics/statistics-plans.server";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import {
  UNPAID_ORDER_STATUSES,
  WITHDRAWN_ORDER_STATUSES,
  type SalesStatistics,
} from "~/features/admin/statistics/statistics.server";
import { COMPANY_TIME_ZONE, companyDay } from "~/lib/company-time";
import { periodBuckets } from "~/features/admin/statistics/statistics-buckets";
import type { StatisticsPeriod } from "~/features/admin/statistics/statistics-period";
import { PLAN_IDS } from "~/features/plans/plans";
import { logger } from "~/logger.server";
import { loader as statisticsLoader } from "~/routes/admin.statistics";
import { databaseWithAdmin, pageRequest } from "../../support/integration/requests";
import { insertInvoice, insertMembership, insertMembershipEvent } from "../../support/integration/memberships-fixtures";
import { insertCustomer, insertOrder, insertRefund } from "../../support/integration/orders-fixtures";
import type { CurrencyRevenueStatistics } from "~/features/admin/statistics/statistics-revenue.server";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();

const ORLY = "Paris Orly - ORY";
const CDG = "Paris Charles de Gaulle - CDG";
const JFK = "New York JFK - JFK";

afterEach(async () => {
  vi.restoreAllMocks();
  await db().delete(refunds);
  await db().delete(invoices);
  await db().delete(memberships);
  await db().delete(orders);
});

function statisticsPage(search: string) {
  return routeResult(() =>
    statisticsLoader(routeArgs(pageRequest(`/admin/statistics${search}`, { cookie: admin().cookie }))),
  );
}

async function statisticsFor(search: string): Promise<SalesStatistics> {
  const result = await statisticsPage(search);
  expect(result.status).toBe(200);
  return (result.data as { statistics: SalesStatistics }).statistics;
}

async function membershipsFor(search: string): Promise<MembershipStatistics> {
  const result = await statisticsPage(search);
  expect(result.status).toBe(200);
  return (result.data as { memberships: MembershipStatistics }).memberships;
}

const zero = { orders: 0, paid: 0, unpaid: 0, withdrawn: 0, revenue: 0 };

async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db().execute(query)) as unknown as { rows: T[] }).rows;
}

describe(`sales statistics on ${testDatabaseKind()}`, () => {
  // 1 March 2026 is a Sunday: the period starts in the week of Monday 23 February. Times are
  // Amsterdam's (UTC+1 in March), whose days the statistics count.
  beforeEach(async () => {
    const { id: customerId } = await insertCustomer(db(), "Statistiques SA");
    const at = (iso: string) => new Date(iso);
    for (const order of [
      { amount: 2200, status: "paid", currency: "EUR", createdAt: at("2026-03-02T10:00:00+01:00"), airport: ORLY },
      {
        amount: 1100,
        status: "completed",
        currency: "EUR",
        createdAt: at("2026-03-02T23:59:59.999+01:00"),
        airport: ORLY,
      },
      { amount: 9900, status: "not_paid", currency: "EUR", createdAt: at("2026-03-02T12:00:00+01:00"), airport: CDG },
      { amount: 5000, status: "cancelled", currency: "EUR", createdAt: at("2026-03-03T00:00:00+01:00"), airport: CDG },
      { amount: 3300, status: "paid", currency: "USD", createdAt: at("2026-03-02T08:00:00+01:00"), airport: ORLY },
      { amount: 1100, status: "paid", currency: "USD", createdAt: at("2026-03-08T23:30:00+01:00"), airport: JFK },
      { amount: 4400, status: "refunded", currency: "USD", createdAt: at("2026-03-09T00:30:00+01:00"), airport: JFK },
      { amount: 600, status: "paid", currency: "USD", createdAt: at("2026-03-10T12:00:00+01:00") },
      // Just outside the period, on either side.
      { amount: 7700, status: "paid", currency: "EUR", createdAt: at("2026-02-28T23:59:59.999+01:00"), airport: ORLY },
      { amount: 8800, status: "paid", currency: "GBP", createdAt: at("2026-03-11T00:00:00+01:00"), airport: ORLY },
    ] as const) {
      await insertOrder(db(), { customerId, ...order });
    }
  });

  it("adds up each currency's revenue (paid and completed orders) and orders per day in Amsterdam, never across currencies", async () => {
    const statistics = await statisticsFor("?from=2026-03-01&to=2026-03-10&granularity=day");
    expect(statistics.totals).toEqual({ orders: 8, paid: 5, unpaid: 1, withdrawn: 2 });
    expect(statistics.currencies.map(({ currency, totals }) => ({ currency, ...totals }))).toEqual([
      { currency: "USD", orders: 4, paid: 3, unpaid: 0, withdrawn: 1, revenue: 5000 },
      { currency: "EUR", orders: 4, paid: 2, unpaid: 1, withdrawn: 1, revenue: 3300 },
    ]);
    const [usd, eur] = statistics.currencies;
    expect(eur!.buckets.map((bucket) => bucket.start)).toEqual([
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
    ]);
    const nonEmpty = (figures: typeof eur) => figures!.buckets.filter((bucket) => bucket.orders > 0);
    expect(nonEmpty(eur)).toEqual([
      { start: "2026-03-02", orders: 3, paid: 2, unpaid: 1, withdrawn: 0, revenue: 3300 },
      { start: "2026-03-03", orders: 1, paid: 0, unpaid: 0, withdrawn: 1, revenue: 0 },
    ]);
    expect(nonEmpty(usd)).toEqual([
      { start: "2026-03-02", orders: 1, paid: 1, unpaid: 0, withdrawn: 0, revenue: 3300 },
      { start: "2026-03-08", orders: 1, paid: 1, unpaid: 0, withdrawn: 0, revenue: 1100 },
      { start: "2026-03-09", orders: 1, paid: 0, unpaid: 0, withdrawn: 1, revenue: 0 },
      { start: "2026-03-10", orders: 1, paid: 1, unpaid: 0, withdrawn: 0, revenue: 600 },
    ]);
    expect(eur!.buckets[0]).toEqual({ start: "2026-03-01", ...zero });
  });

  it("adds up fast tracks, fees, refunds and net per currency and day in Amsterdam, never across currencies", async () => {
    const orderOf = async (amount: number, currency: "USD" | "EUR") => {
      const [order] = await db()
        .select()
        .from(orders)
        .where(and(eq(orders.amount, amount), eq(orders.currency, currency)));
      return order!;
    };
    const { id: customerId } = await insertCustomer(db(), "Abonnés SA");
    const euros = await insertMembership(db(), { customerId, status: "active" });
    const pounds = await insertMembership(db(), { customerId, status: "active", currency: "GBP", price: 7900 });
    const fee = await insertInvoice(db(), {
      membershipId: euros.id,
      amount: 4900,
      paidAt: new Date("2026-03-03T09:00:00+01:00"),
    });
    // Paid at 23:30 UTC on 5 March: the 6th in Amsterdam.
    await insertInvoice(db(), {
      membershipId: pounds.id,
      amount: 7900,
      currency: "GBP",
      paidAt: new Date("2026-03-05T23:30:00Z"),
    });
    await insertInvoice(db(), { membershipId: euros.id, amount: 4900, paidAt: new Date("2026-03-11T09:00:00+01:00") });
    await insertInvoice(db(), { membershipId: pounds.id, amount: 7900, currency: "GBP", status: "open" });
    // $11 of the $33 order; all of the refunded order; a tenth of the euro fee; one still pending.
    const refundedOn = (day: string) => new Date(`${day}T10:00:00+01:00`);
    await insertRefund(db(), {
      orderId: (await orderOf(3300, "USD")).id,
      amount: 1100,
      currency: "USD",
      createdAt: refundedOn("2026-03-04"),
    });
    await insertRefund(db(), {
      orderId: (await orderOf(4400, "USD")).id,
      amount: 4400,
      currency: "USD",
      createdAt: refundedOn("2026-03-09"),
    });
    await insertRefund(db(), { invoiceId: fee.id, amount: 490, currency: "EUR", createdAt: refundedOn("2026-03-04") });
    await insertRefund(db(), {
      orderId: (await orderOf(2200, "EUR")).id,
      amount: 2200,
      currency: "EUR",
      status: "pending",
      createdAt: refundedOn("2026-03-04"),
    });

    const result = await statisticsPage("?from=2026-03-01&to=2026-03-10&granularity=day");
    const revenue = (result.data as { revenue: CurrencyRevenueStatistics[] }).revenue;
    expect(revenue.map(({ currency, totals }) => ({ currency, ...totals }))).toEqual([
      // Fast tracks are every charged order of the period, the refunded one included: 33 + 11 + 44 + 6.
      { currency: "USD", fastTracks: 9400, fees: 0, refunds: 5500, net: 3900 },
      { currency: "EUR", fastTracks: 3300, fees: 4900, refunds: 490, net: 7710 },
      { currency: "GBP", fastTracks: 0, fees: 7900, refunds: 0, net: 7900 },
    ]);
    const nonEmpty = (figures: CurrencyRevenueStatistics | undefined) =>
      figures!.buckets.filter((bucket) => bucket.fastTracks || bucket.fees || bucket.refunds);
    const [usd, eur, gbp] = revenue;
    expect(nonEmpty(usd)).toEqual([
      { start: "2026-03-02", fastTracks: 3300, fees: 0, refunds: 0, net: 3300 },
      { start: "2026-03-04", fastTracks: 0, fees: 0, refunds: 1100, net: -1100 },
      { start: "2026-03-08", fastTracks: 1100, fees: 0, refunds: 0, net: 1100 },
      { start: "2026-03-09", fastTracks: 4400, fees: 0, refunds: 4400, net: 0 },
      { start: "2026-03-10", fastTracks: 600, fees: 0, refunds: 0, net: 600 },
    ]);
    expect(nonEmpty(eur)).toEqual([
      { start: "2026-03-02", fastTracks: 3300, fees: 0, refunds: 0, net: 3300 },
      { start: "2026-03-03", fastTracks: 0, fees: 4900, refunds: 0, net: 4900 },
      { start: "2026-03-04", fastTracks: 0, fees: 0, refunds: 490, net: -490 },
    ]);
    expect(nonEmpty(gbp)).toEqual([{ start: "2026-03-06", fastTracks: 0, fees: 7900, refunds: 0, net: 7900 }]);
    expect(gbp!.buckets).toHaveLength(10);

    const byMonth = await statisticsPage("?from=2026-03-01&to=2026-03-31&granularity=month");
    expect((byMonth.data as { revenue: CurrencyRevenueStatistics[] }).revenue).toEqual([
      {
        currency: "USD",
        totals: { fastTracks: 9400, fees: 0, refunds: 5500, net: 3900 },
        buckets: [{ start: "2026-03-01", fastTracks: 9400, fees: 0, refunds: 5500, net: 3900 }],
      },
      {
        currency: "EUR",
        totals: { fastTracks: 3300, fees: 9800, refunds: 490, net: 12610 },
        buckets: [{ start: "2026-03-01", fastTracks: 3300, fees: 9800, refunds: 490, net: 12610 }],
      },
      {
        currency: "GBP",
        totals: { fastTracks: 8800, fees: 7900, refunds: 0, net: 16700 },
        buckets: [{ start: "2026-03-01", fastTracks: 8800, fees: 7900, refunds: 0, net: 16700 }],
      },
    ]);
  });

  it("groups by ISO week (from Monday) and by month", async () => {
    const byWeek = await statisticsFor("?from=2026-03-01&to=2026-03-10&granularity=week");
    const [usd, eur] = byWeek.currencies;
    expect(usd!.buckets).toEqual([
      { start: "2026-02-23", ...zero },
      { start: "2026-03-02", orders: 2, paid: 2, unpaid: 0, withdrawn: 0, revenue: 4400 },
      { start: "2026-03-09", orders: 2, paid: 1, unpaid: 0, withdrawn: 1, revenue: 600 },
    ]);
    expect(eur!.buckets.map(({ start, revenue }) => [start, revenue])).toEqual([
      ["2026-02-23", 0],
      ["2026-03-02", 3300],
      ["2026-03-09", 0],
    ]);

    const byMonth = await statisticsFor("?from=2026-02-01&to=2026-03-31&granularity=month");
    expect(
      byMonth.currencies.map(({ currency, buckets }) => [
        currency,
        buckets.map(({ start, revenue }) => [start, revenue]),
      ]),
    ).toEqual([
      [
        "USD",
        [
          ["2026-02-01", 0],
          ["2026-03-01", 5000],
        ],
      ],
      [
        "EUR",
        [
          ["2026-02-01", 7700],
          ["2026-03-01", 3300],
        ],
      ],
      [
        "GBP",
        [
          ["2026-02-01", 0],
          ["2026-03-01", 8800],
        ],
      ],
    ]);
  });

  it("ranks airports by paid orders, then orders, with their revenue per currency", async () => {
    const { airports } = await statisticsFor("?from=2026-03-01&to=2026-03-10");
    expect(airports).toEqual([
      {
        airport: ORLY,
        orders: 3,
        paid: 3,
        revenue: [
          { currency: "USD", amount: 3300 },
          { currency: "EUR", amount: 3300 },
        ],
      },
      { airport: JFK, orders: 2, paid: 1, revenue: [{ currency: "USD", amount: 1100 }] },
      { airport: CDG, orders: 2, paid: 0, revenue: [{ currency: "EUR", amount: 0 }] },
    ]);
  });

  it("lists ten airports at most", async () => {
    const { id: customerId } = await insertCustomer(db());
    for (let index = 0; index < 12; index++) {
      const createdAt = new Date("2026-03-05T12:00:00Z");
      await insertOrder(db(), { customerId, amount: 100, status: "paid", createdAt, airport: `Airport ${index}` });
    }
    const { airports } = await statisticsFor("?from=2026-03-01&to=2026-03-10");
    expect(airports).toHaveLength(10);
    expect(airports.slice(0, 3).map((airport) => airport.airport)).toEqual([ORLY, JFK, "Airport 0"]);
  });

  it("counts trials started, conversions, cancellations and unpaid endings per day in Amsterdam, and no other change", async () => {
    const { id: customerId } = await insertCustomer(db(), "Abonnés SA");
    const { id: membershipId } = await insertMembership(db(), { customerId });
    for (const [from, to, at] of [
      [null, "trialing", "2026-03-02T23:30:00+01:00"],
      // 23:10 UTC on 2 March, already the 3rd in Amsterdam.
      [null, "trialing", "2026-03-03T00:10:00+01:00"],
      ["trialing", "active", "2026-03-05T10:00:00+01:00"],
      // A renewal paid on a retry, a renewal, a cancellation requested for the period's end, a
      // declined fee: none of them starts, converts or ends a membership.
      ["past_due", "active", "2026-03-05T11:00:00+01:00"],
      ["active", "active", "2026-03-06T09:00:00+01:00"],
      ["trialing", "trialing", "2026-03-06T10:00:00+01:00"],
      ["active", "past_due", "2026-03-06T11:00:00+01:00"],
      ["trialing", "cancelled", "2026-03-08T12:00:00+01:00"],
      ["active", "cancelled", "2026-03-09T23:59:59.999+01:00"],
      ["past_due", "ended", "2026-03-09T08:00:00+01:00"],
      // Just outside the period, on either side.
      [null, "trialing", "2026-02-28T23:59:59.999+01:00"],
      ["past_due", "ended", "2026-03-11T00:00:00+01:00"],
    ] as const) {
      await insertMembershipEvent(db(), { membershipId, from, to, at: new Date(at) });
    }

    const byDay = await membershipsFor("?from=2026-03-01&to=2026-03-10&granularity=day");
    expect(byDay.totals).toEqual({ trialsStarted: 2, converted: 1, cancelled: 2, endedUnpaid: 1 });
    expect(byDay.buckets).toHaveLength(10);
    const counted = (figures: MembershipStatistics) =>
      figures.buckets.filter(
        (bucket) => bucket.trialsStarted + bucket.converted + bucket.cancelled + bucket.endedUnpaid > 0,
      );
    expect(counted(byDay)).toEqual([
      { start: "2026-03-02", trialsStarted: 1, converted: 0, cancelled: 0, endedUnpaid: 0 },
      { start: "2026-03-03", trialsStarted: 1, converted: 0, cancelled: 0, endedUnpaid: 0 },
      { start: "2026-03-05", trialsStarted: 0, converted: 1, cancelled: 0, endedUnpaid: 0 },
      { start: "2026-03-08", trialsStarted: 0, converted: 0, cancelled: 1, endedUnpaid: 0 },
      { start: "2026-03-09", trialsStarted: 0, converted: 0, cancelled: 1, endedUnpaid: 1 },
    ]);

    const byWeek = await membershipsFor("?from=2026-03-01&to=2026-03-10&granularity=week");
    expect(byWeek.buckets).toEqual([
      { start: "2026-02-23", trialsStarted: 0, converted: 0, cancelled: 0, endedUnpaid: 0 },
      { start: "2026-03-02", trialsStarted: 2, converted: 1, cancelled: 1, endedUnpaid: 0 },
      { start: "2026-03-09", trialsStarted: 0, converted: 0, cancelled: 1, endedUnpaid: 1 },
    ]);
    const byMonth = await membershipsFor("?from=2026-02-01&to=2026-03-31&granularity=month");
    expect(byMonth.buckets.map(({ start, trialsStarted, endedUnpaid }) => [start, trialsStarted, endedUnpaid])).toEqual(
      [
        ["2026-02-01", 1, 0],
        ["2026-03-01", 2, 2],
      ],
    );
  });

  it("counts each plan's trials, conversions and moves to it, and the free accesses of members' paid bookings", async () => {
    const { id: customerId } = await insertCustomer(db(), "Formules SA");
    const { id: membershipId } = await insertMembership(db(), { customerId });
    for (const [from, to, plan, fromPlan, at] of [
      [null, "trialing", "medium", null, "2026-03-02T10:00:00+01:00"],
      [null, "trialing", "premium", null, "2026-03-03T10:00:00+01:00"],
      [null, "trialing", "premium", null, "2026-03-04T10:00:00+01:00"],
      // A trial moved to Premium, a Premium trial converted, a move to Medium made as a quarter ended.
      ["trialing", "trialing", "premium", "medium", "2026-03-04T11:00:00+01:00"],
      ["trialing", "active", "premium", null, "2026-03-05T10:00:00+01:00"],
      ["active", "active", "medium", "premium", "2026-03-10T23:59:59.999+01:00"],
      // A renewal changes no plan; the next entry is just after the period.
      ["active", "active", "medium", null, "2026-03-06T10:00:00+01:00"],
      ["active", "active", "premium", "medium", "2026-03-11T00:00:00+01:00"],
    ] as const) {
      await insertMembershipEvent(db(), { membershipId, from, to, plan, fromPlan, at: new Date(at) });
    }
    const { id: memberId } = await insertCustomer(db(), "Membre SA");
    for (const [status, free, at] of [
      ["paid", 2, "2026-03-02T10:00:00+01:00"],
      ["completed", 1, "2026-03-09T10:00:00+01:00"],
      // Not paid, or given back: not used.
      ["not_paid", 2, "2026-03-03T10:00:00+01:00"],
      ["refunded", 1, "2026-03-04T10:00:00+01:00"],
      ["paid", 1, "2026-03-11T00:00:00+01:00"],
    ] as const) {
      const order = await insertOrder(db(), { customerId: memberId, amount: 0, status, createdAt: new Date(at) });
      await db()
        .update(orders)
        .set({ adults: 2, freeAccesses: free, allowanceMembershipId: membershipId })
        .where(sql`${orders.id} = ${order.id}`);
    }

    const result = await statisticsPage("?from=2026-03-01&to=2026-03-10&granularity=week");
    expect(result.status).toBe(200);
    expect((result.data as { plans: PlanStatistics }).plans).toEqual({
      plans: [
        { plan: "medium", trialsStarted: 1, converted: 0, changedTo: 1 },
        { plan: "premium", trialsStarted: 2, converted: 1, changedTo: 1 },
      ],
      freeAccesses: {
        buckets: [
          { start: "2026-02-23", used: 0 },
          { start: "2026-03-02", used: 2 },
          { start: "2026-03-09", used: 1 },
        ],
        total: 3,
      },
    });
  });

  it("counts the plans' figures and free accesses as the history and bookings themselves do, across Amsterdam midnights and clock changes", async () => {
    const { id: customerId } = await insertCustomer(db(), "Horloges SA");
    const { id: membershipId } = await insertMembership(db(), { customerId });
    // Each side of the Amsterdam midnights around both clock changes of 2026 (29 March, 25 October),
    // and the hours that do not exist or happen twice.
    const instants = [
      "2026-03-28T23:59:59.999+01:00",
      "2026-03-29T00:00:00+01:00",
      "2026-03-29T01:30:00+01:00",
      "2026-03-29T03:00:00+02:00",
      "2026-03-29T23:59:59.999+02:00",
      "2026-03-30T00:00:00+02:00",
      "2026-10-24T23:59:59.999+02:00",
      "2026-10-25T02:30:00+02:00",
      "2026-10-25T02:30:00+01:00",
      "2026-10-25T23:59:59.999+01:00",
      "2026-10-26T00:00:00+01:00",
    ].map((iso) => new Date(iso));
    const other = { medium: "premium", premium: "medium" } as const;
    const statuses = ["paid", "completed", "not_paid", "refunded", "cancelled"] as const;
    for (const [index, at] of instants.entries()) {
      const plan = index % 2 ? "premium" : "medium";
      // A trial, a conversion, a move, a conversion that moved too, and a renewal, most of them at each instant.
      for (const [kind, [from, to, fromPlan]] of (
        [
          [null, "trialing", null],
          ["trialing", "active", null],
          ["active", "active", other[plan]],
          ["trialing", "active", other[plan]],
          ["active", "active", null],
        ] as const
      ).entries()) {
        if ((index + kind) % 3 === 0) continue;
        await insertMembershipEvent(db(), { membershipId, from, to, plan, fromPlan, at });
      }
      const order = await insertOrder(db(), { customerId, amount: 0, status: statuses[index % 5]!, createdAt: at });
      await db()
        .update(orders)
        .set({ adults: 3, freeAccesses: 1 + (index % 3), allowanceMembershipId: index === 5 ? null : membershipId })
        .where(eq(orders.id, order.id));
    }

    /** The figures as counted from the period's history entries and bookings, between its Amsterdam midnights. */
    const counted = async ({ from, to, granularity }: StatisticsPeriod): Promise<PlanStatistics> => {
      const start = sql`(${from}::date::timestamp at time zone ${COMPANY_TIME_ZONE})`;
      const end = sql`((${to}::date + 1)::timestamp at time zone ${COMPANY_TIME_ZONE})`;
      const plans = await rowsOf<{ plan: string; trials: string; converted: string; changed: string }>(sql`
        select plan, count(*) filter (where from_status is null and to_status = 'trialing') as trials,
               count(*) filter (where from_status = 'trialing' and to_status = 'active') as converted,
               count(*) filter (where from_plan is not null) as changed
        from membership_events where created_at >= ${start} and created_at < ${end} group by plan`);
      const used = await rowsOf<{ bucket: string; used: string }>(sql`
        select to_char(date_trunc(${granularity}, (created_at at time zone ${COMPANY_TIME_ZONE})::date::timestamp),
                       'YYYY-MM-DD') as bucket, sum(free_accesses) as used
        from orders
        where allowance_membership_id is not null and status in ('paid', 'completed')
          and created_at >= ${start} and created_at < ${end}
        group by 1`);
      const buckets = periodBuckets({ from, to, granularity }).map((start) => ({
        start,
        used: Number(used.find((row) => row.bucket === start)?.used ?? 0),
      }));
      return {
        plans: PLAN_IDS.map((plan) => {
          const row = plans.find((candidate) => candidate.plan === plan);
          return {
            plan,
            trialsStarted: Number(row?.trials ?? 0),
            converted: Number(row?.converted ?? 0),
            changedTo: Number(row?.changed ?? 0),
          };
        }),
        freeAccesses: { buckets, total: buckets.reduce((sum, bucket) => sum + bucket.used, 0) },
      };
    };

    const periods: StatisticsPeriod[] = [
      { from: "2026-03-29", to: "2026-03-29", granularity: "day" },
      { from: "2026-03-28", to: "2026-03-30", granularity: "day" },
      { from: "2026-03-30", to: "2026-10-25", granularity: "week" },
      { from: "2026-10-25", to: "2026-10-25", granularity: "day" },
      { from: "2026-10-24", to: "2026-10-26", granularity: "day" },
      { from: "2026-03-01", to: "2026-10-31", granularity: "month" },
    ];
    for (const period of periods) {
      const result = await statisticsPage(`?${new URLSearchParams({ ...period })}`);
      expect(result.status).toBe(200);
      expect((result.data as { plans: PlanStatistics }).plans, JSON.stringify(period)).toEqual(await counted(period));
    }
    // Not an empty comparison: the day of the spring clock change, by hand.
    expect(await counted(periods[0]!)).toEqual({
      plans: [
        { plan: "medium", trialsStarted: 2, converted: 3, changedTo: 3 },
        { plan: "premium", trialsStarted: 1, converted: 3, changedTo: 2 },
      ],
      freeAccesses: { buckets: [{ start: "2026-03-29", used: 2 }], total: 2 },
    });
  });

  it("counts every status in exactly one of paid, unpaid and withdrawn", () => {
    const grouped = [...PAID_ORDER_STATUSES, ...UNPAID_ORDER_STATUSES, ...WITHDRAWN_ORDER_STATUSES];
    expect(grouped.sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it("answers an empty period with zero figures and no currency", async () => {
    const result = await statisticsPage("?from=2025-01-01&to=2025-01-31&granularity=week");
    expect(result.data).toMatchObject({
      statistics: { totals: { orders: 0, paid: 0, unpaid: 0, withdrawn: 0 }, currencies: [], airports: [] },
      revenue: [],
      memberships: {
        totals: { trialsStarted: 0, converted: 0, cancelled: 0, endedUnpaid: 0 },
        buckets: ["2024-12-30", "2025-01-06", "2025-01-13", "2025-01-20", "2025-01-27"].map((start) => ({
          start,
          trialsStarted: 0,
          converted: 0,
          cancelled: 0,
          endedUnpaid: 0,
        })),
      },
    });
  });

  it("shows the last 30 days by day when no period is given", async () => {
    const result = await statisticsPage("");
    expect(result.status).toBe(200);
    const { period, statistics } = result.data as { period: { from: string; to: string }; statistics: SalesStatistics };
    const today = companyDay(new Date());
    expect(period).toEqual({
      from: new Date(Date.parse(today) - 29 * 24 * 3600_000).toISOString().slice(0, 10),
      to: today,
      granularity: "day",
    });
    expect(statistics.totals.orders).toBe(0);
  });

  it.each([
    ["?from=demain", { from: ["Indiquez une date de début valide (AAAA-MM-JJ)"] }],
    ["?from=2026-02-30", { from: ["Indiquez une date de début valide (AAAA-MM-JJ)"] }],
    ["?from=0001-01-01&to=2026-01-01&granularity=month", { from: ["Indiquez une date de début valide (AAAA-MM-JJ)"] }],
    ["?from=2026-03-10&to=2026-03-01", { to: ["La date de fin doit suivre la date de début"] }],
    ["?granularity=hour", { granularity: ["Choisissez jour, semaine ou mois"] }],
    [
      "?from=2025-01-01&to=2026-01-02&granularity=day",
      {
        "": [
          "Par jour, la période ne peut pas dépasser un an : choisissez une période plus courte, ou un regroupement par semaine ou par mois",
        ],
      },
    ],
    ["?from=2020-01-01&to=2026-01-01&granularity=month", { "": ["La période ne peut pas dépasser deux ans"] }],
  ])("refuses %s with a 400 and a French message, figures unread", async (search, error) => {
    const result = await statisticsPage(search);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ statistics: null, memberships: null, result: { status: "error", error } });
  });

  it("accepts a year by day and two years by week", async () => {
    expect((await statisticsPage("?from=2025-03-11&to=2026-03-11&granularity=day")).status).toBe(200);
    const byWeek = await statisticsFor("?from=2024-03-11&to=2026-03-10&granularity=week");
    expect(byWeek.currencies[0]!.buckets).toHaveLength(105);
  });

  it.each(["order_days", "membership_days"])(
    "still shows the page, with the error toast, when %s cannot be read, and logs it",
    async (table) => {
      const logged = vi.spyOn(logger, "error");
      await db().execute(sql.raw(`alter table ${table} rename to ${table}_away`));
      try {
        const result = await statisticsPage("");
        expect(result.status).toBe(200);
        expect(result.data).toMatchObject({
          statistics: null,
          memberships: null,
          toast: { title: "Erreur lors du chargement des données" },
        });
        expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), expect.any(String));
      } finally {
        await db().execute(sql.raw(`alter table ${table}_away rename to ${table}`));
      }
    },
  );
});
