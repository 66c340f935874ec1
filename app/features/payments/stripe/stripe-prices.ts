import type { MembershipPlan } from "~/db/schema";
import type { CurrencyCode } from "~/lib/currency";

/** How `npm run stripe:setup` names a plan's quarterly price in a currency, and how payments find it again. */
export function priceLookupKey(plan: MembershipPlan, currency: CurrencyCode): string {
  return `${plan}_${currency.toLowerCase()}_quarterly`;
}
