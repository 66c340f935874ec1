import { describe, expect, it } from "vitest";
import { MAX_REFUND_REASON_LENGTH, parseMajorAmount, refundSchema } from "./refund";

describe("parseMajorAmount", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12,50", 1250],
    ["0.01", 1],
    [" 49 ", 4900],
    ["0,07", 7],
    ["9999999.99", 999_999_999],
    // Exactly, where floating point would give 1004.9999…
    ["10.05", 1005],
  ])("reads %j as %i minor units", (typed, minor) => {
    expect(parseMajorAmount(typed)).toBe(minor);
  });

  it.each(["", "12.345", "1e3", "-5", "+5", "12.", ".5", "1 000", "12€", "€12", "12,5.0", "abc", "10000000"])(
    "refuses %j",
    (typed) => {
      expect(parseMajorAmount(typed)).toBeNull();
    },
  );
});

describe("the refund form", () => {
  const key = "6f1c2a40-9b7e-4d8f-a1c3-2e5b7d9f0a12";
  const parse = (fields: Record<string, unknown>) => refundSchema.safeParse({ idempotencyKey: key, ...fields });
  const messages = (fields: Record<string, unknown>) =>
    parse(fields).error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("gives the amount in minor units, the trimmed reason, and whether the confirmation step sent it", () => {
    expect(parse({ amount: " 12,50 ", reason: "  Double charge  " }).data).toEqual({
      amount: 1250,
      reason: "Double charge",
      idempotencyKey: key,
      confirmed: false,
    });
    expect(parse({ amount: "12,50", reason: "x", confirmed: "yes" }).data).toMatchObject({ confirmed: true });
    expect(parse({ amount: "12,50", reason: "x", confirmed: "on" }).success).toBe(false);
  });

  it("refuses a missing, zero or malformed amount, in French", () => {
    expect(messages({ amount: "", reason: "x" })).toEqual([["amount", "Indiquez le montant à rembourser."]]);
    expect(messages({ reason: "x" })).toEqual([["amount", "Indiquez le montant à rembourser."]]);
    for (const amount of ["0", "0.00", "12.345", "-3"]) {
      expect(messages({ amount, reason: "x" }), amount).toEqual([
        ["amount", "Montant invalide : un nombre positif, deux décimales au plus."],
      ]);
    }
  });

  it("requires a reason of at most the allowed length", () => {
    expect(messages({ amount: "5", reason: "   " })).toEqual([["reason", "Indiquez le motif du remboursement."]]);
    expect(parse({ amount: "5", reason: "x".repeat(MAX_REFUND_REASON_LENGTH) }).success).toBe(true);
    expect(messages({ amount: "5", reason: "x".repeat(MAX_REFUND_REASON_LENGTH + 1) })).toEqual([
      ["reason", `Le motif ne peut pas dépasser ${MAX_REFUND_REASON_LENGTH} caractères.`],
    ]);
  });

  it("requires the page's idempotency key", () => {
    expect(
      refundSchema.safeParse({ amount: "5", reason: "x", idempotencyKey: "again" }).error?.issues[0]?.message,
    ).toBe("Formulaire expiré : rechargez la page.");
  });
});
