export type PeriodUnit = "hour" | "day" | "month" | "year";

/** A period as the legal texts word it: "one month", "48 hours", "6 years". */
export function formatPeriod(amount: number, unit: PeriodUnit): string {
  if (!Number.isInteger(amount) || amount < 1)
    throw new Error(`A period must be a positive whole number, got ${amount}`);
  return amount === 1 ? `one ${unit}` : `${amount} ${unit}s`;
}
