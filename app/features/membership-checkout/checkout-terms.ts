import type { OrderTerms } from "~/features/booking/order-terms";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { planFee, trialEndsAt } from "~/features/memberships/trial-offer";
import type { PlanId } from "~/features/site-config/types";
import { formatAmount, formatPrice, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";

/** The request to start the trial within the withdrawal period (CRD Art. 16(a)), stored word for word. */
export function checkoutConsentWording(plan: PlanId): string {
  const days = MEMBERSHIP_TERMS.changeOfMindDays;
  return `I ask for my ${siteConfig.pricing[plan].name} membership's free trial to start now, within the ${days}-day withdrawal period. I understand that if I withdraw after my first fee is charged I pay for what was provided until then.`;
}

/**
 * What stands right above the membership checkout's button (CRD Art. 6(1) and 8(2), ADR 019): the
 * plan and its fee, nothing charged now, the first charge's day and amount and how to stop it, and
 * a button that names the obligation to pay. Dates and amounts come from the code that starts the trial.
 */
export function checkoutTerms({
  plan,
  currency,
  now,
}: {
  plan: PlanId;
  currency: CurrencyCode;
  now: Date;
}): OrderTerms {
  const { trialDays, periodMonths } = MEMBERSHIP_TERMS;
  const { name, price } = siteConfig.pricing[plan];
  const fee = formatAmount(planFee(plan), currency);
  const firstCharge = formatMemberDay(trialEndsAt(now));
  return {
    bought: `${siteConfig.company.name} ${name} membership: a ${trialDays}-day free trial, then ${fee} every ${periodMonths} months.`,
    totalNow: `Total now: ${formatAmount(0, currency)}`,
    membership: `We check your card with your bank and keep it, without charging it. The first fee, ${fee}, is charged on ${firstCharge} unless you cancel before then; cancel anytime online.`,
    button: `Start free trial – then ${formatPrice(price, currency)} every ${periodMonths} months`,
    consent: checkoutConsentWording(plan),
  };
}
