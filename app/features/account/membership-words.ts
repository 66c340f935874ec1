import { formatAmount } from "~/lib/currency";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { membershipPlanName } from "~/features/memberships/membership-status";
import { MEMBERSHIP_TERMS, noticeWording } from "~/features/memberships/membership-terms";
import { planFee } from "~/features/memberships/trial-offer";
import type { AccountMembership } from "./account.server";

/** The membership as its member reads it: its state in words, then the facts that matter now. */
export interface MembershipWords {
  planName: string;
  status: string;
  /** A sentence on what happens next (a charge, an end), or what to do. */
  next: string;
  /** What cancelling now would do, for the step that confirms it. */
  cancelConsequence: string;
  rows: [string, string][];
}

interface Facts {
  fee: string;
  /** The next quarter's fee: a cheaper plan asked for applies from then (ADR 030). */
  nextFee: string;
  card: string;
  periodEnd: string;
}

function statusAndNext(membership: AccountMembership, { fee, nextFee, card, periodEnd }: Facts) {
  const endedOn = membership.endedAt ? ` on ${formatMemberDay(membership.endedAt)}` : "";
  switch (membership.status) {
    case "trialing":
      return membership.cancelAtPeriodEnd
        ? { status: "Cancelled", next: `Your free trial ends on ${periodEnd}. Nothing will be charged.` }
        : {
            status: "Free trial",
            next: `Your free trial ends on ${periodEnd}. Then we charge ${fee} to your ${card}.`,
          };
    case "active":
      return membership.cancelAtPeriodEnd
        ? {
            status: "Cancelled",
            next: `You keep your benefits until ${periodEnd}. No further fee will be charged.`,
          }
        : { status: "Active", next: `Next charge: ${nextFee} on ${periodEnd}, to your ${card}.` };
    case "past_due": {
      const until = membership.graceEndsAt
        ? ` If it is still unpaid on ${formatMemberDay(membership.graceEndsAt)}, your membership ends.`
        : "";
      return membership.awaitsConfirmation
        ? {
            status: "Payment due",
            next: `Your bank asks you to confirm the payment of ${fee} with your ${card}.${until}`,
          }
        : {
            status: "Payment due",
            next: `We could not charge ${fee} to your ${card}.${until} We try the card again every ${MEMBERSHIP_TERMS.retryEveryDays} days.`,
          };
    }
    case "cancelled":
      return {
        status: "Cancelled",
        next: membership.endedAt
          ? `Your membership ended${endedOn}. Nothing more will be charged.`
          : `You keep your benefits until ${periodEnd}. Nothing more will be charged.`,
      };
    case "ended":
      return {
        status: "Ended",
        next: `Your membership ended${endedOn}, its fee unpaid. Nothing more will be charged.`,
      };
  }
}

function cancelConsequence(membership: AccountMembership, { fee, periodEnd }: Facts): string {
  if (membership.status === "trialing") return `Your free trial ends on ${periodEnd} and nothing is charged.`;
  if (membership.status === "past_due") return `It ends today, and the unpaid fee of ${fee} is never charged.`;
  return `It will not renew, and nothing more will be charged. You keep its benefits until ${periodEnd} at the latest (sooner with ${noticeWording(MEMBERSHIP_TERMS.noticeMonths)}, the rest of the fee refunded): the next page says the day.`;
}

export function membershipWords(membership: AccountMembership): MembershipWords {
  const facts: Facts = {
    fee: formatAmount(membership.price, membership.currency),
    nextFee: formatAmount(
      membership.scheduledPlan ? planFee(membership.scheduledPlan) : membership.price,
      membership.currency,
    ),
    card: `${membership.cardBrand} ending ${membership.cardLast4}`,
    periodEnd: formatMemberDay(membership.currentPeriodEnd),
  };
  const planName = membershipPlanName(membership.plan);
  return {
    planName,
    ...statusAndNext(membership, facts),
    cancelConsequence: cancelConsequence(membership, facts),
    rows: [
      ["Plan", planName],
      ["Fee", `${facts.fee} every ${MEMBERSHIP_TERMS.periodMonths} months`],
      ["Card", facts.card],
      ["Member since", formatMemberDay(membership.createdAt)],
    ],
  };
}
