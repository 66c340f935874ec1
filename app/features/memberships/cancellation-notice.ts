import { companyMonthsLater } from "~/lib/company-time";
import { MEMBERSHIP_TERMS } from "./membership-terms";

/** The paid period a member's cancellation falls in, and its fee. */
export interface PaidPeriod {
  start: Date;
  end: Date;
  /** What the member paid for it, in minor units. */
  amount: number;
  /** What was refunded of it already, in minor units. */
  refunded: number;
}

export interface NoticeEnd {
  /** When the membership ends: one month's notice, or the period's own end if that comes first. */
  endsAt: Date;
  /** What to refund now of the period's fee, in minor units: the part after `endsAt`, less earlier refunds; 0 for none. */
  refund: number;
}

/**
 * A cancellation after the first term (the wording of art. 6:236 sub j BW): it takes effect at
 * most `MEMBERSHIP_TERMS.noticeMonths` after the request, and the part of the period's fee after
 * that date is refunded pro rata, the odd minor unit to the member. A request in the period's last
 * month changes nothing: the period ends first, and nothing is refunded.
 */
export function noticeEnd(requestedAt: Date, period: PaidPeriod): NoticeEnd {
  const notice = companyMonthsLater(requestedAt, MEMBERSHIP_TERMS.noticeMonths);
  if (notice >= period.end) return { endsAt: period.end, refund: 0 };
  const endsAt = notice < period.start ? period.start : notice;
  const length = BigInt(period.end.getTime() - period.start.getTime());
  const used = BigInt(endsAt.getTime() - period.start.getTime());
  // Integer arithmetic, exact for any amount: the company keeps the used share rounded down (as a
  // withdrawal's refund does), so the member gets any odd minor unit, and never more than the fee.
  const kept = length > 0n ? Number((BigInt(period.amount) * used) / length) : period.amount;
  return { endsAt, refund: Math.max(0, period.amount - kept - period.refunded) };
}
