import { REFUND_WITHIN_DAYS } from "~/features/payments/refund";
import { siteConfig } from "../../../site.config";

/**
 * The lifecycle the terms describe (spec §4 and §9), in one place: the code that charges and the
 * pages and e-mails that explain it read the same numbers.
 */
export const MEMBERSHIP_TERMS = {
  trialDays: siteConfig.trialDays,
  /** One fee per quarter. */
  periodMonths: 3,
  /**
   * After the first term (the trial and the first paid quarter), a member's cancellation takes
   * effect this long after the request at the latest (art. 6:236 sub j BW); the rest of the
   * quarter's fee is refunded.
   */
  noticeMonths: 1,
  /** The "first charge tomorrow" e-mail goes this long before the trial ends. */
  trialReminderHours: 24,
  /** After the payment reminder, the member has this long to pay before the membership ends. */
  reminderGraceDays: 7,
  /** A declined fee is tried again this often while the grace lasts. */
  retryEveryDays: 2,
  /** The change-of-mind window, from the confirmation e-mail. */
  changeOfMindDays: 14,
  refundWithinDays: REFUND_WITHIN_DAYS,
} as const;

/** "one month's notice" or "2 months' notice". */
export function noticeWording(months: number): string {
  return months === 1 ? "one month's notice" : `${months} months' notice`;
}
