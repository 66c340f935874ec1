import type { MembershipPlan, MembershipStatus } from "~/db/schema";
import { companyDay } from "~/lib/company-time";
import { membershipPlanName } from "./membership-status";
import { planFee } from "./trial-offer";

const DAY_MS = 86_400_000;

/** Calendar days from one Amsterdam day ("YYYY-MM-DD") to another. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

interface PaidPeriod {
  periodStart: Date;
  periodEnd: Date;
  now: Date;
}

/** The paid quarter's Amsterdam calendar days, and those still to come, today included. */
function daysLeft({ periodStart, periodEnd, now }: PaidPeriod) {
  const total = daysBetween(companyDay(periodStart), companyDay(periodEnd));
  const left = Math.min(total, Math.max(0, daysBetween(companyDay(now), companyDay(periodEnd))));
  return { total, left };
}

/**
 * What moving to a dearer plan costs now (ADR 030): the difference between the two fees for the
 * days of the paid quarter still to come, today included, counted in Amsterdam calendar days, and
 * rounded to the nearest minor unit (a half up). The first day of a quarter costs the whole
 * difference; the day the next quarter starts costs nothing, as that quarter is billed at the new fee.
 */
export function proratedDifference({
  fromFee,
  toFee,
  ...period
}: PaidPeriod & { fromFee: number; toFee: number }): number {
  const { total, left } = daysLeft(period);
  const difference = toFee - fromFee;
  if (total <= 0 || left === 0 || difference <= 0) return 0;
  return Math.floor((2 * difference * left + total) / (2 * total));
}

/**
 * The instant a provider that prorates to the second (Stripe) is asked to prorate an upgrade made on
 * `now`'s day at: the same share of the period's time still to come as our count of its days, so
 * that it charges the difference of `proratedDifference`, but for its rounding of each line. The whole
 * day gives one instant: the price shown in the morning is the price charged at night.
 */
export function prorationDate(period: PaidPeriod): Date {
  const { total, left } = daysLeft(period);
  const end = period.periodEnd.getTime();
  if (total <= 0) return period.periodEnd;
  const seconds = Math.round((end - ((end - period.periodStart.getTime()) * left) / total) / 1000);
  return new Date(seconds * 1000);
}

/** The history's note when a move to a cheaper plan is made, as the next quarter starts. */
export const scheduledPlanNote = (from: MembershipPlan, to: MembershipPlan) =>
  `Formule : ${membershipPlanName(from)} → ${membershipPlanName(to)}, au début de la nouvelle période`;

/** The plan a member of `plan` can move to: there are two. */
export function otherPlan(plan: MembershipPlan): MembershipPlan {
  return plan === "medium" ? "premium" : "medium";
}

/** How a change from the membership's plan to `to` takes effect, or why it cannot be made. */
export type PlanChangeKind =
  /** During the trial: the plan that will be charged changes, nothing is charged now. */
  | { kind: "trial" }
  /** Dearer, in a paid quarter: at once, the prorated difference charged now (0: nothing to charge). */
  | { kind: "upgrade"; amount: number }
  /** Cheaper, in a paid quarter: from the next quarter, which is billed at the new fee. */
  | { kind: "downgrade"; from: Date }
  | { kind: "refused"; reason: PlanChangeRefusal };

/** Why a plan cannot change, as the member reads it (the back office has its own words). */
export const PLAN_CHANGE_REFUSALS = {
  same: "This is already your plan.",
  notRunning: "Only a running membership can change plan.",
  pastDue: "Please pay the overdue fee first: then you can change plan.",
  ending: "This membership ends at the end of its paid quarter: it can no longer change plan.",
  providerBilled: "Changing plan is not available online for this membership: please contact us.",
  unpriced: "We cannot work out the price of this change right now: please try again in a minute.",
  changing: "Another plan change is being paid: please try again in a minute.",
} as const;

export type PlanChangeRefusal = keyof typeof PLAN_CHANGE_REFUSALS;

/** What changing to `to` would do for this membership now. */
export function planChangeKind(
  membership: {
    plan: MembershipPlan;
    status: MembershipStatus;
    cancelAtPeriodEnd: boolean;
    currentPeriodStart: Date;
    currentPeriodEnd: Date;
  },
  to: MembershipPlan,
  now: Date,
): PlanChangeKind {
  if (membership.plan === to) return { kind: "refused", reason: "same" };
  if (membership.status === "past_due") return { kind: "refused", reason: "pastDue" };
  if (membership.status !== "trialing" && membership.status !== "active") {
    return { kind: "refused", reason: "notRunning" };
  }
  if (membership.cancelAtPeriodEnd) return { kind: "refused", reason: "ending" };
  if (membership.status === "trialing") return { kind: "trial" };
  const fromFee = planFee(membership.plan);
  const toFee = planFee(to);
  if (toFee < fromFee) return { kind: "downgrade", from: membership.currentPeriodEnd };
  return {
    kind: "upgrade",
    amount: proratedDifference({
      fromFee,
      toFee,
      periodStart: membership.currentPeriodStart,
      periodEnd: membership.currentPeriodEnd,
      now,
    }),
  };
}
