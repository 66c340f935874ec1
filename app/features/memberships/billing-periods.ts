import { companyMonthsBetween, companyMonthsLater } from "~/lib/company-time";
import { MEMBERSHIP_TERMS } from "./membership-terms";

export interface BillingPeriod {
  start: Date;
  end: Date;
}

/**
 * A membership's `n`-th paid period (0 is the first quarter after the trial): it starts
 * `n` × `periodMonths` after the billing anchor (the trial's end), on the anchor's day of the month
 * or the last day of a shorter month, in Amsterdam. Computed from the anchor every time, never from
 * the last period's end, so that one short month never moves the billing day (ADR 016).
 */
export function billingPeriod(anchor: Date, n: number): BillingPeriod {
  return {
    start: companyMonthsLater(anchor, n * MEMBERSHIP_TERMS.periodMonths),
    end: companyMonthsLater(anchor, (n + 1) * MEMBERSHIP_TERMS.periodMonths),
  };
}

/**
 * The period that follows the trial or a period ending at `end`: from `end` to the next anchor date.
 * Which period that is comes from the calendar months between the anchor and `end`, rounded, so that
 * a period chained before the anchor existed (it may end up to three days early) is followed by one
 * that ends on the anchor's day again.
 */
export function billingPeriodAfter(anchor: Date, end: Date): BillingPeriod {
  const next = Math.round(companyMonthsBetween(anchor, end) / MEMBERSHIP_TERMS.periodMonths);
  return { start: end, end: billingPeriod(anchor, next).end };
}
