import { CURRENCY_CODES, type CurrencyCode } from "~/db/enums";

export { CURRENCY_CODES, type CurrencyCode };

export interface Currency {
  code: CurrencyCode;
  label: string;
  symbol: string;
  /** Prices are shown in the chosen currency without conversion: every rate is 1. */
  rate: number;
}

export const CURRENCIES: readonly Currency[] = [
  { code: "USD", label: "United States Dollars", symbol: "$", rate: 1 },
  { code: "EUR", label: "Euros", symbol: "€", rate: 1 },
  { code: "GBP", label: "Great Britain Pounds", symbol: "£", rate: 1 },
];

export const DEFAULT_CURRENCY: CurrencyCode = "USD";

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === "string" && (CURRENCY_CODES as readonly string[]).includes(value);
}

export function currencyByCode(code: CurrencyCode): Currency {
  const currency = CURRENCIES.find((candidate) => candidate.code === code);
  if (!currency) throw new Error(`Unknown currency ${code}`);
  return currency;
}

/** "$49", "€5.50": a whole-unit price with the currency's symbol, decimals only when needed. */
export function formatPrice(majorUnits: number, code: CurrencyCode): string {
  const decimals = Number.isInteger(majorUnits) ? 0 : 2;
  return `${currencyByCode(code).symbol}${majorUnits.toFixed(decimals)}`;
}

const MINOR_UNITS_PER_MAJOR = 100;

export function toMinorUnits(majorUnits: number): number {
  return Math.round(majorUnits * MINOR_UNITS_PER_MAJOR);
}

/** "€33" for 3300 EUR: the only place minor units become a displayed price. */
export function formatAmount(minorUnits: number, currency: CurrencyCode): string {
  return formatPrice(minorUnits / MINOR_UNITS_PER_MAJOR, currency);
}
