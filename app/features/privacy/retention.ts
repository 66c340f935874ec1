/**
 * How long personal data is kept. The privacy policy renders its retention text from this object and
 * the retention job applies the same numbers, so the promise on the page and the system cannot drift.
 */
export const RETENTION = {
  /** Orders still 'not_paid' are deleted this long after they were created. */
  unpaidOrderHours: 48,
  /** Customer data is kept this long after the customer's last order or the end of their membership, whichever is later. */
  customerDataYears: 6,
  /** A data request is answered within this many calendar months (GDPR art. 12(3): one month). */
  dataRequestResponseMonths: 1,
  /** Contact messages are kept this long after they were received. */
  contactMessageYears: 2,
  /** Unsubscribe requests are kept this long, so that the address stays unsubscribed meanwhile. */
  unsubscribeRequestYears: 2,
  /** Rate-limit counters hold a client's IP address; their windows last a minute, so a day is plenty. */
  rateLimitCounterHours: 24,
} as const;
