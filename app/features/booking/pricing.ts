import { formatPrice, toMinorUnits, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import type { Passengers } from "./passengers";

/** The fast-track price in minor units: adults x adult price + children x child price (site.config.ts). */
export function bookingAmount({ adults, children }: Passengers): number {
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  return toMinorUnits(adultPrice) * adults + toMinorUnits(childPrice) * children;
}

/** The membership that a first fast-track purchase starts: free for the trial, then the Medium plan. */
export function trialNote(currency: CurrencyCode): string {
  const { trialDays, pricing } = siteConfig;
  return `Your first Fast Track purchase includes a ${trialDays}-day free trial of our membership, then ${formatPrice(pricing.medium.price, currency)} every quarter. Cancel anytime.`;
}

/** The payment page's note instead, when the order's address has had its trial: an address gets one. */
export const TRIAL_USED_NOTE =
  "This e-mail address has already had its free trial, so this payment is for the Fast Track only: no membership starts.";

/** Instead, when the member's free accesses cover some of the passengers (ADR 029). */
export function freeAccessesNote({ adults, children, freeAccesses }: Passengers & { freeAccesses: number }): string {
  const passengers = adults + children;
  if (freeAccesses >= passengers) {
    return "Your membership's free accesses this month cover every passenger: there is nothing to pay.";
  }
  return `Your membership's free accesses this month cover ${freeAccesses} of these ${passengers} passengers: you pay for the other ${passengers - freeAccesses}.`;
}
