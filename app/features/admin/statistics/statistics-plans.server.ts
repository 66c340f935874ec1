import { and, gte, isNotNull, lte, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipDays, type MembershipPlan } from "~/db/schema";
import { PLAN_IDS } from "~/features/plans/plans";
import { periodBuckets } from "./statistics-buckets";
import { CHANGE_KINDS, changesOf } from "./statistics-memberships.server";
import type { StatisticsPeriod } from "./statistics-period";
import type { PeriodFigures } from "./statistics.server";

// The plans over a period (ADR 029, ADR 030), counted by the database from the daily figures: the
// history's entries per plan and plan before (`membership_days`, migration 0032) and the free
// accesses of the members' bookings (`order_days`, read with the orders' figures by `periodFigures`).

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

/** Each plan's trials, conversions and moves to it over the period, every plan listed. */
export async function planCounts(db: Database, period: StatisticsPeriod): Promise<PlanCounts[]> {
  const count = (kind: SQL) => changesOf(kind).mapWith(Number);
  const rows = await db
    .select({
      plan: membershipDays.plan,
      trialsStarted: count(CHANGE_KINDS.trialsStarted),
      converted: count(CHANGE_KINDS.converted),
      changedTo: count(isNotNull(membershipDays.fromPlan)),
    })
    .from(membershipDays)
    .where(and(gte(membershipDays.day, period.from), lte(membershipDays.day, period.to)))
    .groupBy(membershipDays.plan);
  return PLAN_IDS.map((plan) => {
    const row = rows.find((candidate) => candidate.plan === plan);
    return {
      plan,
      trialsStarted: row?.trialsStarted ?? 0,
      converted: row?.converted ?? 0,
      changedTo: row?.changedTo ?? 0,
    };
  });
}

/** The free accesses used in each bucket of the period (over every currency), and in all. */
export function freeAccessesUsed(period: StatisticsPeriod, figures: PeriodFigures[]): PlanStatistics["freeAccesses"] {
  const overCurrencies = figures.filter((row) => row.currency === null);
  return {
    buckets: periodBuckets(period).map((start) => ({
      start,
      used: overCurrencies.find((row) => row.bucket === start)?.freeAccesses ?? 0,
    })),
    total: overCurrencies.find((row) => row.bucket === null)?.freeAccesses ?? 0,
  };
}
