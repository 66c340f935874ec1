// Value lists the browser needs too, kept apart from schema.ts so that client bundles never pull in Drizzle.

export const CURRENCY_CODES = ["USD", "EUR", "GBP"] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

export const DATA_REQUEST_KINDS = ["access", "export", "erasure"] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** What a withdrawal statement withdraws from: the membership, the fast track, or both. */
export const WITHDRAWAL_SCOPES = ["membership", "fast-track", "both"] as const;
export type WithdrawalScope = (typeof WITHDRAWAL_SCOPES)[number];
