/**
 * The money a withdrawal gives back (CRD Art. 14(3), ADR 019): the consumer pays only for what was
 * provided until the withdrawal. Pure arithmetic, in minor units, so that it is tested on its own.
 */

/**
 * What is refunded of a paid membership fee: the share of its period not used by `until` (the
 * withdrawal), less what was refunded of it before. The company keeps the used share rounded down
 * (never more than the time used), so the consumer gets any odd minor unit. Never negative.
 */
export function unusedFeeRefund({
  amount,
  periodStart,
  periodEnd,
  until,
  refundedBefore,
}: {
  amount: number;
  periodStart: Date;
  periodEnd: Date;
  until: Date;
  refundedBefore: number;
}): number {
  const length = periodEnd.getTime() - periodStart.getTime();
  const used = Math.min(Math.max(until.getTime() - periodStart.getTime(), 0), Math.max(length, 0));
  const kept = length > 0 ? Math.floor((amount * used) / length) : amount;
  return Math.max(amount - kept - refundedBefore, 0);
}

/**
 * What is refunded of the fast track itself: all that is left of it while its flight day is still
 * to come (the service has not been provided), nothing once the day has come (it was provided, at
 * the consumer's express request to start within the period, Art. 16(a)). Only a paid order: a
 * completed one was used, a refunded one has nothing left.
 */
export function fastTrackRefund({
  status,
  flightDate,
  today,
  amount,
  refundedBefore,
}: {
  status: string;
  /** "YYYY-MM-DD", or null when the order has none. */
  flightDate: string | null;
  /** "YYYY-MM-DD" in Amsterdam. */
  today: string;
  amount: number;
  refundedBefore: number;
}): number {
  if (status !== "paid" || flightDate === null || flightDate <= today) return 0;
  return Math.max(amount - refundedBefore, 0);
}
