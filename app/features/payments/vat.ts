import { companyDay } from "~/lib/company-time";

export interface VatRate {
  /** Its first day, in Amsterdam ("YYYY-MM-DD"). */
  since: string;
  percent: number;
}

/** The rate in force on the day `issuedAt` falls on in Amsterdam: the latest that started by then. */
export function vatRateOn(issuedAt: Date, rates: readonly VatRate[]): number {
  const day = companyDay(issuedAt);
  const inForce = rates.filter((rate) => rate.since <= day).sort((a, b) => a.since.localeCompare(b.since));
  const rate = inForce.at(-1);
  if (!rate) throw new Error(`No VAT rate is configured for ${day}`);
  return rate.percent;
}

/** The VAT a price that includes it holds, in minor units, rounded to the nearest (half up). */
export function vatIncluded(total: number, percent: number): number {
  const vat = Math.round((Math.abs(total) * percent) / (100 + percent));
  return total < 0 && vat > 0 ? -vat : vat;
}
