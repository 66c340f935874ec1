import { cardSchema } from "~/features/payments/card";
import { z } from "~/lib/zod";

/** The card form of the member area: the card, and the key that makes a form sent twice keep one card. */
export function replaceCardSchema(now: Date) {
  return cardSchema(now).extend({ formKey: z.uuid("This form has expired. Please reload the page.") });
}
