import { formatAmount } from "~/lib/currency";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { membershipPlanName } from "~/features/memberships/membership-status";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import type { AccountMembership } from "./account.server";

/** The membership as its member reads it: its state in words, then the facts that matter now. */
export interface MembershipWords {
  planName: string;
  status: string;
  /** A sentence on what happens next (a charge, an end), or what to do. */
  next: string;
  rows: [string, string][];
}

export function membershipWords(membership: AccountMembership): MembershipWords {
  const planName = membershipPlanName(membership.plan);
  const fee = formatAmount(membership.price, membership.currency);
  const card = `${membership.cardBrand} ending ${membership.cardLast4}`;
  const periodEnd = formatMemberDay(membership.currentPeriodEnd);
  const rows: [string, string][] = [
    ["Plan", planName],
    ["Fee", `${fee} every ${MEMBERSHIP_TERMS.periodMonths} months`],
    ["Card", card],
    ["Member since", formatMemberDay(membership.createdAt)],
  ];
  switch (membership.status) {
    case "trialing":
      return membership.cancelAtPeriodEnd
        ? {
            planName,
            status: "Cancelled",
            next: `Your free trial ends on ${periodEnd}. Nothing will be charged.`,
            rows,
          }
        : {
            planName,
            status: "Free trial",
            next: `Your free trial ends on ${periodEnd}. Then we charge ${fee} to your ${card}.`,
            rows,
          };
    case "active":
      return membership.cancelAtPeriodEnd
        ? {
            planName,
            status: "Cancelled",
            next: `You keep your benefits until ${periodEnd}. No further fee will be charged.`,
            rows,
          }
        : { planName, status: "Active", next: `Next charge: ${fee} on ${periodEnd}, to your ${card}.`, rows };
    case "past_due":
      return {
        planName,
        status: "Payment due",
        next: `We could not charge ${fee} to your ${card}.${
          membership.graceEndsAt
            ? ` If it is still unpaid on ${formatMemberDay(membership.graceEndsAt)}, your membership ends.`
            : ""
        } We try the card again every ${MEMBERSHIP_TERMS.retryEveryDays} days.`,
        rows,
      };
    case "cancelled":
      return {
        planName,
        status: "Cancelled",
        next: membership.endedAt
          ? `Your membership ended on ${formatMemberDay(membership.endedAt)}. Nothing more will be charged.`
          : `You keep your benefits until ${periodEnd}. Nothing more will be charged.`,
        rows,
      };
    case "ended":
      return {
        planName,
        status: "Ended",
        next: `Your membership ended${membership.endedAt ? ` on ${formatMemberDay(membership.endedAt)}` : ""}, its fee unpaid. Nothing more will be charged.`,
        rows,
      };
  }
}
