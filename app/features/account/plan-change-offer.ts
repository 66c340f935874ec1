import type { MembershipPlan } from "~/db/schema";
import { monthlyFreeAccesses } from "~/features/memberships/fast-track-allowance";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { membershipPlanName } from "~/features/memberships/membership-status";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { otherPlan, type PlanChangeKind } from "~/features/memberships/plan-change";
import { planFee } from "~/features/memberships/trial-offer";
import { formatAmount } from "~/lib/currency";
import type { AccountMembership } from "./account.server";

/** What the account offers about the plan: the other plan and what moving to it does now, or the move already asked for. */
export type PlanChangeOffer =
  /** The move already asked for, and the button that calls it off. */
  | { scheduled: string; keep: string }
  | { to: MembershipPlan; explanation: string; button: string; expectedAmount: number | null };

/**
 * The account's plan change (ADR 030), from what moving to the other plan does now (`quotePlanChange`);
 * null when the membership cannot change plan online.
 */
export function planChangeOffer(membership: AccountMembership, change: PlanChangeKind): PlanChangeOffer | null {
  if (membership.scheduledPlan) {
    return {
      scheduled: `Your plan changes to ${membershipPlanName(membership.scheduledPlan)} on ${formatMemberDay(membership.currentPeriodEnd)}, when this quarter ends.`,
      keep: `Keep ${membershipPlanName(membership.plan)}`,
    };
  }
  const to = otherPlan(membership.plan);
  const name = membershipPlanName(to);
  const fee = `${formatAmount(planFee(to), membership.currency)} every ${MEMBERSHIP_TERMS.periodMonths} months`;
  const accesses = `${monthlyFreeAccesses(to)} free fast-track accesses a month`;
  const periodEnd = formatMemberDay(membership.currentPeriodEnd);
  switch (change.kind) {
    case "refused":
      return null;
    case "trial":
      return {
        to,
        explanation: `Your trial goes on as it is. ${name} gives ${accesses}; from ${periodEnd} we charge ${fee}.`,
        button: `Switch to ${name}`,
        expectedAmount: null,
      };
    case "upgrade":
      return {
        to,
        explanation:
          change.amount > 0
            ? `${name} gives ${accesses}, from today. You pay the difference for the rest of this quarter now, then ${fee} from ${periodEnd}.`
            : `${name} gives ${accesses}, from today, then ${fee} from ${periodEnd}. Nothing more is due for this quarter.`,
        button:
          change.amount > 0
            ? `Upgrade to ${name} – pay ${formatAmount(change.amount, membership.currency)} now`
            : `Upgrade to ${name}`,
        expectedAmount: change.amount,
      };
    case "downgrade":
      return {
        to,
        explanation: `You keep ${membershipPlanName(membership.plan)} until ${periodEnd}. From then your plan is ${name}, ${fee}, with ${accesses}.`,
        button: `Switch to ${name} from ${periodEnd}`,
        expectedAmount: null,
      };
  }
}
