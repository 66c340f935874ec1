import { describe, expect, it } from "vitest";
import { refundFeedback } from "./refund-feedback";

describe("refundFeedback", () => {
  it("tells what was refunded, or that a second submission refunded nothing more", () => {
    expect(refundFeedback({ kind: "refunded", amount: 1050, refundedTotal: 2000 }, "EUR")).toEqual({
      toast: {
        type: "success",
        title: "Remboursement effectué",
        description: "10,50\u00a0€ remboursés ; 20,00\u00a0€ remboursés en tout.",
      },
    });
    expect(refundFeedback({ kind: "already-refunded", refundedTotal: 1050 }, "GBP")).toMatchObject({
      toast: { type: "info", description: expect.stringContaining("10,50\u00a0£ en tout") },
    });
  });

  it("refuses more than is left on the amount, and nothing left or nothing paid on the form", () => {
    expect(refundFeedback({ kind: "too-much", refundable: 3650 }, "USD")).toEqual({
      refused: { amount: "Au plus 36,50\u00a0$ : c'est ce qui reste à rembourser." },
    });
    expect(refundFeedback({ kind: "too-much", refundable: 0 }, "USD")).toEqual({
      refused: { form: "Tout a déjà été remboursé : rien n'a été remboursé de plus." },
    });
    expect(refundFeedback({ kind: "nothing-paid" }, "USD")).toEqual({
      refused: { form: "Rien n'a été payé : il n'y a rien à rembourser." },
    });
  });
});
