import { formatPrice } from "~/lib/currency";
import { useCurrency } from "~/components/layout/currency-menu";

/** A whole-unit price with the visitor's currency symbol, as the root loader read it. */
export function Price({ amount }: { amount: number }) {
  return formatPrice(amount, useCurrency().code);
}
