/** The member area's e-mailed sign-in codes (ADR 027). */
export const SIGN_IN_CODE_RULES = {
  digits: 6,
  /** How long a code, and the link that carries it, works. */
  minutes: 10,
  /** Wrong codes typed before the code stops working and a new one must be asked for. */
  triesPerCode: 5,
  /** Codes asked for, and codes tried, per client address and minute (per e-mail address: RATE_LIMIT_TIERS). */
  perClientAddressPerMinute: 5,
} as const;
