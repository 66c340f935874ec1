import { and, gte, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipEvents, orders, type MembershipPlan } from "~/db/schema";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import { PLAN_IDS } from "~/features/plans/plans";
import { addCompanyDays, startOfCompanyDay } from "~/lib/company-time";
import { periodBuckets } from "./statistics-buckets";
import type { StatisticsPeriod } from "./statistics-period";

// The plans over a period (ADR 029, ADR 030), counted by the database from the memberships' history
// (each entry names its plan, and the plan before when it changed it) and from the members' bookings.

export interface PlanCounts {
  plan: MembershipPlan;
  /** Trials that began on this plan. */
  trialsStarted: number;
  /** Trials whose first fee was paid on this plan. */
  converted: number;
  /** Memberships that moved to this plan (at once, or when a quarter ended). */
  changedTo: number;
}

export interface PlanStatistics {
  plans: PlanCounts[];
  /** Free fast-track accesses of paid bookings, per bucket of the period, and in all. */
  freeAccesses: { buckets: { start: string; used: number }[]; total: number };
}

/** The instants the period's Amsterdam days cover: from its first day's start to the day after its last. */
const periodBounds = (period: StatisticsPeriod) => ({
  start: startOfCompanyDay(period.from),
  end: startOfCompanyDay(addCompanyDays(period.to, 1)),
});

export async function planStatistics(db: Database, period: StatisticsPeriod): Promise<PlanStatistics> {
  const { start, end } = periodBounds(period);
  const trialStarted = sql`${membershipEvents.toStatus} = 'trialing' and ${membershipEvents.fromStatus} is null`;
  const converted = sql`${membershipEvents.toStatus} = 'active' and ${membershipEvents.fromStatus} = 'trialing'`;
  const planChanged = sql`${membershipEvents.fromPlan} is not null`;
  const count = (condition: SQL) => sql`count(*) filter (where ${condition})`.mapWith(Number);
  const bucket = sql<string>`to_char(date_trunc(${period.granularity}, (${orders.createdAt} at time zone 'Europe/Amsterdam')::date::timestamp), 'YYYY-MM-DD')`;
  const [planRows, accessRows] = await Promise.all([
    db
      .select({
        plan: membershipEvents.plan,
        trialsStarted: count(trialStarted),
        converted: count(converted),
        changedTo: count(planChanged),
      })
      .from(membershipEvents)
      // Only the entries counted, each kind found through an index: not every renewal of the period.
      .where(
        and(
          gte(membershipEvents.createdAt, start),
          lt(membershipEvents.createdAt, end),
          or(trialStarted, converted, planChanged),
        ),
      )
      .groupBy(membershipEvents.plan),
    db
      .select({ bucket, used: sql`sum(${orders.freeAccesses})`.mapWith(Number) })
      .from(orders)
      .where(
        and(
          isNotNull(orders.allowanceMembershipId),
          inArray(orders.status, [...PAID_ORDER_STATUSES]),
          gte(orders.createdAt, start),
          lt(orders.createdAt, end),
        ),
      )
      .groupBy(sql`1`),
  ]);
  const buckets = periodBuckets(period).map((start) => ({
    start,
    used: accessRows.find((row) => row.bucket === start)?.used ?? 0,
  }));
  return {
    plans: PLAN_IDS.map((plan) => {
      const row = planRows.find((candidate) => candidate.plan === plan);
      return {
        plan,
        trialsStarted: row?.trialsStarted ?? 0,
        converted: row?.converted ?? 0,
        changedTo: row?.changedTo ?? 0,
      };
    }),
    freeAccesses: { buckets, total: buckets.reduce((sum, { used }) => sum + used, 0) },
  };
}
