import { z } from "~/lib/zod";

// The forms of a membership's admin page, each told apart by the field only it sends.

/** The cancel buttons (MembershipCancelForm): at the end of the paid period, or at once. */
export const cancelSchema = z.object({
  cancel: z.enum(["at-period-end", "now"], { error: "Résiliation inconnue." }),
});

/** The query that opens the "are you sure?" step of the cancellation at once. */
export const CONFIRM_CANCEL_NOW = "?confirmer=resiliation";

/** The hidden field by which an invoice's RefundForm says which invoice it refunds. */
export const REFUND_INVOICE_FIELD = "invoiceId";
