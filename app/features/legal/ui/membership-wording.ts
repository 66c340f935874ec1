import { MEMBERSHIP_TERMS, noticeWording } from "~/features/memberships/membership-terms";
import { TRIAL_PLAN } from "~/features/memberships/trial-offer";
import { formatPeriod } from "~/lib/format-period";
import { siteConfig } from "../../../../site.config";

const { pricing } = siteConfig;

/** The membership's terms in the words both legal pages use, so that the two always agree. */
export const membershipWording = {
  ...MEMBERSHIP_TERMS,
  notice: noticeWording(MEMBERSHIP_TERMS.noticeMonths),
  noticePeriod: formatPeriod(MEMBERSHIP_TERMS.noticeMonths, "month"),
  everyPeriod: `every ${MEMBERSHIP_TERMS.periodMonths} months`,
  reminderBefore: formatPeriod(MEMBERSHIP_TERMS.trialReminderHours, "hour"),
  plans: [pricing.medium, pricing.premium],
  trialPlan: pricing[TRIAL_PLAN],
};
