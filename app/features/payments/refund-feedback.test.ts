import { describe, expect, it } from "vitest";
import { refundFeedback, type Refunded } from "./refund-feedback";

const order: Refunded = { kind: "commande", paid: 4900, currency: "EUR" };
const invoice: Refunded = { kind: "facture", paid: 4900, currency: "USD" };

describe("refundFeedback", () => {
  it("tells what was refunded and what is left, or that a second submission refunded nothing more", () => {
    expect(refundFeedback({ kind: "refunded", amount: 1050, refundedTotal: 2000 }, order)).toEqual({
      toast: {
        type: "success",
        title: "Remboursement effectué",
        description: "10,50\u00a0€ remboursés ; il reste 29,00\u00a0€ remboursables.",
      },
    });
    expect(refundFeedback({ kind: "refunded", amount: 2900, refundedTotal: 4900 }, invoice)).toMatchObject({
      toast: { description: "29,00\u00a0$ remboursés : la facture est entièrement remboursée." },
    });
    expect(refundFeedback({ kind: "already-refunded", refundedTotal: 1050 }, order)).toEqual({
      toast: {
        type: "info",
        title: "Déjà remboursé",
        description: "Ce formulaire a déjà été envoyé : rien de plus n'a été remboursé.",
      },
    });
  });

  it("refuses more than is left on the amount, and nothing left or nothing paid in a toast", () => {
    expect(refundFeedback({ kind: "too-much", refundable: 3650 }, invoice)).toEqual({
      amountError: "Montant trop élevé : 36,50\u00a0$ au plus.",
    });
    expect(refundFeedback({ kind: "too-much", refundable: 0 }, order)).toEqual({
      toast: {
        type: "error",
        title: "Remboursement refusé",
        description: "Cette commande est déjà entièrement remboursée : rien n'a été remboursé.",
      },
    });
    expect(refundFeedback({ kind: "nothing-paid" }, invoice)).toMatchObject({
      toast: { type: "error", description: "Cette facture n'a pas été payée : rien n'a été remboursé." },
    });
  });
});
