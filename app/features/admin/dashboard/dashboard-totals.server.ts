import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  CURRENCY_CODES,
  customerTotals,
  MEMBERSHIP_STATUSES,
  membershipTotals,
  orderTotals,
  type CurrencyCode,
  type MembershipPlan,
  type MembershipStatus,
} from "~/db/schema";
import { PLAN_IDS } from "~/features/plans/plans";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";

export interface DashboardTotals {
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
export async function dashboardTotals(db: Database): Promise<DashboardTotals> {
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

export interface MembershipFigures {
  /**
   * Every status, in the order of MEMBERSHIP_STATUSES, with how many memberships have it (0
   * included), and how many of them are on each plan, in the order of PLAN_IDS.
   */
  members: { status: MembershipStatus; members: number; byPlan: { plan: MembershipPlan; members: number }[] }[];
  /**
   * The quarterly fees that will be charged next, per currency (never added together), in minor
   * units; currencies without any are left out.
   */
  recurring: { currency: CurrencyCode; amount: number }[];
}

/**
 * The dashboard's membership figures, from the summary rows the triggers of migration 0012 keep:
 * members per status (and per plan within it) and recurring fees per currency, in one query over a
 * few dozen rows.
 */
export async function membershipFigures(db: Database): Promise<MembershipFigures> {
  const rows = await db
    .select({
      status: sql<MembershipStatus | null>`${membershipTotals.status}`,
      plan: sql<MembershipPlan | null>`${membershipTotals.plan}`,
      currency: sql<CurrencyCode | null>`${membershipTotals.currency}`,
      members: sql`sum(${membershipTotals.members})`.mapWith(Number),
      recurring: sql`sum(${membershipTotals.recurring})`.mapWith(Number),
    })
    .from(membershipTotals)
    .groupBy(
      sql`grouping sets ((${membershipTotals.status}), (${membershipTotals.status}, ${membershipTotals.plan}), (${membershipTotals.currency}))`,
    );
  const count = (status: MembershipStatus, plan: MembershipPlan | null) =>
    rows.find((row) => row.status === status && row.plan === plan)?.members ?? 0;
  return {
    members: MEMBERSHIP_STATUSES.map((status) => ({
      status,
      members: count(status, null),
      byPlan: PLAN_IDS.map((plan) => ({ plan, members: count(status, plan) })),
    })),
    recurring: CURRENCY_CODES.flatMap((currency) => {
      const amount = rows.find((row) => row.currency === currency)?.recurring ?? 0;
      return amount === 0 ? [] : [{ currency, amount }];
    }),
  };
}
