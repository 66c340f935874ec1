import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { TRIAL_PLAN, trialEndsAt, trialFee } from "~/features/memberships/trial-offer";
import { formatAmount } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { formatFlightDate } from "./flight-date";
import type { OrderDetails } from "./order-details";
import { describePassengers } from "./passengers";
import { consentWording } from "./start-consent";

/**
 * What stands right above the payment button (CRD Art. 6(1) and 8(2), ADR 019): what is bought, the
 * total now, and for a first fast track the membership that follows, with its fee, first charge and
 * how to stop it; the button's own words; and the consent the consumer gives to start at once.
 * Dates and amounts come from the code that starts the trial and charges it.
 */
export interface OrderTerms {
  bought: string;
  totalNow: string;
  /** Null when the address has had its trial: the payment is for the fast track only. */
  membership: string | null;
  button: string;
  consent: string;
}

type Order = Pick<
  OrderDetails,
  "amount" | "currency" | "airport" | "flightDate" | "adults" | "children" | "freeAccesses"
>;

export function orderTerms(order: Order, { startsTrial, now }: { startsTrial: boolean; now: Date }): OrderTerms {
  const total = formatAmount(order.amount, order.currency);
  return {
    bought: describeFastTrack(order),
    totalNow: `Total now: ${total}`,
    membership: startsTrial ? membershipTerms(order, now) : null,
    // Nothing to pay: the member's free accesses cover every passenger (ADR 029).
    button: order.amount === 0 && order.freeAccesses > 0 ? "Confirm booking" : `FINISH – pay ${total} now`,
    consent: consentWording(startsTrial),
  };
}

function describeFastTrack(order: Order): string {
  const where = order.airport ? ` at ${order.airport}` : "";
  const when = order.flightDate ? ` on ${formatFlightDate(order.flightDate)}` : "";
  return `Fast Track for ${describePassengers(order, " and ")}${where}${when}.${freeAccessesSentence(order)}`;
}

/** " 2 of them on your membership's free accesses.": the passengers not charged. */
function freeAccessesSentence({ adults, children, freeAccesses }: Order): string {
  if (freeAccesses === 0) return "";
  if (freeAccesses === adults + children) return " All on your membership's free accesses.";
  return ` ${freeAccesses} of them on your membership's free accesses.`;
}

function membershipTerms({ currency }: Order, now: Date): string {
  const { trialDays, periodMonths } = MEMBERSHIP_TERMS;
  const plan = siteConfig.pricing[TRIAL_PLAN].name;
  const firstCharge = formatMemberDay(trialEndsAt(now));
  return `Includes a ${trialDays}-day free trial of the ${plan} membership: then ${formatAmount(trialFee(), currency)} every ${periodMonths} months from ${firstCharge}, unless you cancel before ${firstCharge}; cancel anytime online.`;
}
