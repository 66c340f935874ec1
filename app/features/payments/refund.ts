import { z } from "~/lib/zod";

export const MAX_REFUND_REASON_LENGTH = 500;

/** A refund we grant reaches the card within this many days (the terms' promise). */
export const REFUND_WITHIN_DAYS = 14;

/** "12", "12.5" or "12,50": a refund amount as an admin types it, in major units. */
const AMOUNT = /^(\d{1,7})(?:[.,](\d{1,2}))?$/;

/** The typed amount in minor units, exactly (no floating point), or null when it is not an amount. */
export function parseMajorAmount(typed: string): number | null {
  const match = AMOUNT.exec(typed.trim());
  if (!match) return null;
  const cents = (match[2] ?? "").padEnd(2, "0");
  return Number(match[1]) * 100 + Number(cents);
}

/** What an admin would type for `minor` units: 4400 is "44,00" (the French decimal comma). */
export function formatMajorAmount(minor: number): string {
  return `${Math.floor(minor / 100)},${String(minor % 100).padStart(2, "0")}`;
}

/** The back office's refund form (French). The cap, what was paid less what was refunded, is checked on the server. */
export const refundSchema = z.object({
  amount: z
    .string({ error: "Indiquez le montant à rembourser." })
    .trim()
    .min(1, "Indiquez le montant à rembourser.")
    .transform((typed, context) => {
      const minor = parseMajorAmount(typed);
      if (minor === null || minor <= 0) {
        context.addIssue({ code: "custom", message: "Montant invalide : un nombre positif, deux décimales au plus." });
        return z.NEVER;
      }
      return minor;
    }),
  reason: z
    .string({ error: "Indiquez le motif du remboursement." })
    .trim()
    .min(1, "Indiquez le motif du remboursement.")
    .max(MAX_REFUND_REASON_LENGTH, `Le motif ne peut pas dépasser ${MAX_REFUND_REASON_LENGTH} caractères.`),
  /** Given by the page that shows the form, so that a second click refunds nothing more. */
  idempotencyKey: z.uuid({ error: "Formulaire expiré : rechargez la page." }),
  /** Sent by the step that confirms refunding everything that is left (ConfirmStep). */
  confirmed: z
    .literal("yes")
    .optional()
    .transform((confirmed) => confirmed === "yes"),
});

/** A refund asked for: by the back office's form (`confirmed` told), or by the site itself (a withdrawal). */
export type RefundInput = Omit<z.output<typeof refundSchema>, "confirmed"> & { confirmed?: boolean };

/** A refund of all that is left, sent without its confirmation: what the "are you sure?" step sends again. */
export interface FullRefundStep {
  amount: number;
  reason: string;
  idempotencyKey: string;
}
