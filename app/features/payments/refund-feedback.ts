import type { CurrencyCode } from "~/lib/currency";
import { formatAmountFr } from "~/lib/format-fr";
import type { Toast } from "~/lib/toast";
import type { RefundOutcome } from "./refunds.server";

/**
 * What the back office tells the admin after a refund form (French): a toast on the page it
 * redirects to when the form is done with, or the reason it was refused, shown on the form beside
 * what was typed (`amount` on that field, `form` above the form). Nothing was refunded then.
 */
export type RefundFeedback = { toast: Toast } | { refused: { amount: string } | { form: string } };

export function refundFeedback(outcome: RefundOutcome, currency: CurrencyCode): RefundFeedback {
  const amount = (minor: number) => formatAmountFr(minor, currency);
  switch (outcome.kind) {
    case "refunded":
      return {
        toast: {
          type: "success",
          title: "Remboursement effectué",
          description: `${amount(outcome.amount)} remboursés ; ${amount(outcome.refundedTotal)} remboursés en tout.`,
        },
      };
    case "already-refunded":
      return {
        toast: {
          type: "info",
          title: "Déjà remboursé",
          description: `Ce formulaire avait déjà été envoyé : rien de plus n'a été remboursé (${amount(outcome.refundedTotal)} en tout).`,
        },
      };
    case "too-much":
      return {
        refused:
          outcome.refundable > 0
            ? { amount: `Au plus ${amount(outcome.refundable)} : c'est ce qui reste à rembourser.` }
            : { form: "Tout a déjà été remboursé : rien n'a été remboursé de plus." },
      };
    case "nothing-paid":
      return { refused: { form: "Rien n'a été payé : il n'y a rien à rembourser." } };
  }
}
