import type { MembershipPlan } from "~/db/schema";
import { companyDaysLater } from "~/lib/company-time";
import { toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { MEMBERSHIP_TERMS } from "./membership-terms";

/**
 * The membership a first paid fast track starts, in one place: the payment page's texts, the
 * confirmation e-mail, the trial that is started and the fee that is charged all read it here. The
 * membership checkout starts either plan's trial on the same terms.
 */

/** The plan of the trial: the spec's "then 49 every quarter". */
export const TRIAL_PLAN = "medium" as const;

/** When a trial started at `start` ends, and its first fee is charged: `trialDays` later on Amsterdam's calendar, at the same time of day. */
export function trialEndsAt(start: Date): Date {
  return companyDaysLater(start, MEMBERSHIP_TERMS.trialDays);
}

/** A plan's fee per period in minor units: the same figure in every currency. */
export function planFee(plan: MembershipPlan): number {
  return toMinorUnits(siteConfig.pricing[plan].price);
}

/** The trial plan's fee per period in minor units. */
export function trialFee(): number {
  return planFee(TRIAL_PLAN);
}
