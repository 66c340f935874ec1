import type { CurrencyCode } from "~/lib/currency";
import { formatAmountFr } from "~/lib/format-fr";
import type { Toast } from "~/lib/toast";
import type { RefundOutcome } from "./refunds.server";

/** What was refunded: an order or a membership's invoice (both feminine in French). */
export type Refunded = { kind: "commande" | "facture"; paid: number; currency: CurrencyCode };

/**
 * What the back office tells the admin after a refund form (French): a toast on the page it
 * redirects to; for an amount above what is left, an error on the amount field beside what was
 * typed; for all that is left, not yet confirmed, the step that asks. A refusal refunded nothing.
 */
export type RefundFeedback = { toast: Toast } | { amountError: string } | { confirmFull: number };

export function refundFeedback(outcome: RefundOutcome, refunded: Refunded): RefundFeedback {
  const amount = (minor: number) => formatAmountFr(minor, refunded.currency);
  const refused = (description: string) => ({
    toast: { type: "error", title: "Remboursement refusé", description } as const,
  });
  switch (outcome.kind) {
    case "refunded":
      return {
        toast: {
          type: "success",
          title: "Remboursement effectué",
          description:
            outcome.refundedTotal >= refunded.paid
              ? `${amount(outcome.amount)} remboursés : la ${refunded.kind} est entièrement remboursée.`
              : `${amount(outcome.amount)} remboursés ; il reste ${amount(refunded.paid - outcome.refundedTotal)} remboursables.`,
        },
      };
    case "already-refunded":
      // The same form sent again (a double click, a resubmission): the first one did the refund.
      return {
        toast: {
          type: "info",
          title: "Déjà remboursé",
          description: "Ce formulaire a déjà été envoyé : rien de plus n'a été remboursé.",
        },
      };
    case "too-much":
      // Nothing left means a stale page: the page that reloads shows why.
      return outcome.refundable > 0
        ? { amountError: `Montant trop élevé : ${amount(outcome.refundable)} au plus.` }
        : refused(`Cette ${refunded.kind} est déjà entièrement remboursée : rien n'a été remboursé.`);
    case "confirm-full":
      // Everything that is left: the form gives way to its "are you sure?" step.
      return { confirmFull: outcome.amount };
    case "nothing-paid":
      return refused(`Cette ${refunded.kind} n'a pas été payée : rien n'a été remboursé.`);
  }
}
