import { formatPrice, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import type { Passengers } from "./passengers";

const MINOR_UNITS_PER_MAJOR = 100;

/** The fast-track price in minor units: adults x adult price + children x child price (site.config.ts). */
export function bookingAmount({ adults, children }: Passengers): number {
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  return toMinorUnits(adultPrice) * adults + toMinorUnits(childPrice) * children;
}

export function toMinorUnits(majorUnits: number): number {
  return Math.round(majorUnits * MINOR_UNITS_PER_MAJOR);
}

/** "€33" for 3300 EUR: the only place minor units become a displayed price. */
export function formatAmount(minorUnits: number, currency: CurrencyCode): string {
  return formatPrice(minorUnits / MINOR_UNITS_PER_MAJOR, currency);
}

/** The subscription that a first fast-track purchase starts: free for the trial, then the Medium plan. */
export function trialNote(currency: CurrencyCode): string {
  const { trialDays, pricing } = siteConfig;
  return `Your first Fast Track purchase includes a ${trialDays}-day free trial of our membership, then ${formatPrice(pricing.medium.price, currency)} every quarter. Cancel anytime.`;
}
