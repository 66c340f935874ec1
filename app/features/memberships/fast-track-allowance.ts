import type { MembershipPlan, MembershipStatus } from "~/db/schema";
import { addCompanyMonths, COMPANY_TIME_ZONE, companyDay, startOfCompanyDay } from "~/lib/company-time";
import { siteConfig } from "../../../site.config";

/** The free fast-track accesses a plan gives each calendar month (site.config.ts). */
export function monthlyFreeAccesses(plan: MembershipPlan): number {
  return siteConfig.pricing[plan].freeFastTracksPerMonth;
}

/** The Amsterdam calendar month `now` falls in: when it starts and ends, and its name ("December"). */
export function allowanceMonth(now: Date): { start: Date; end: Date; name: string } {
  const first = `${companyDay(now).slice(0, 8)}01`;
  return {
    start: startOfCompanyDay(first),
    end: startOfCompanyDay(addCompanyMonths(first, 1)),
    name: monthName.format(now),
  };
}

const monthName = new Intl.DateTimeFormat("en-GB", { timeZone: COMPANY_TIME_ZONE, month: "long" });

/**
 * Whether a membership's accesses can be spent now (ADR 029): from its first paid quarter, and not
 * while a fee is past due. A trial's accesses start with its first fee; an ended or cancelled
 * membership has none.
 */
export type AllowanceStanding =
  { kind: "open" } | { kind: "after-trial"; from: Date } | { kind: "past-due" } | { kind: "none" };

export function allowanceStanding({
  status,
  currentPeriodEnd,
  currentPeriodStart,
  now,
}: {
  status: MembershipStatus;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  now: Date;
}): AllowanceStanding {
  switch (status) {
    case "trialing":
      return { kind: "after-trial", from: currentPeriodEnd };
    case "past_due":
      return { kind: "past-due" };
    case "active":
      // A membership cancelled for its period's end stays active, paid, until then.
      return now >= currentPeriodStart && now < currentPeriodEnd ? { kind: "open" } : { kind: "none" };
    default:
      return { kind: "none" };
  }
}

/**
 * Which of a booking's passengers travel free: as many as are left, the dearer tickets first so the
 * member saves the most (adults and children cost the same today).
 */
export function freePassengers(
  { adults, children }: { adults: number; children: number },
  left: number,
): { adults: number; children: number } {
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  const free = Math.max(0, left);
  if (adultPrice >= childPrice) {
    const freeAdults = Math.min(adults, free);
    return { adults: freeAdults, children: Math.min(children, free - freeAdults) };
  }
  const freeChildren = Math.min(children, free);
  return { adults: Math.min(adults, free - freeChildren), children: freeChildren };
}

/** "2 of 2 free accesses left in December": the booking form's line for a member. */
export function accessesLeftLine(left: number, allowance: number, month: string): string {
  return `${left} of ${allowance} free ${allowance === 1 ? "access" : "accesses"} left in ${month}`;
}
