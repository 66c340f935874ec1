import { describe, expect, it } from "vitest";
import { formatMajorAmount, parseMajorAmount, refundSchema } from "./refund";

describe("refund amounts as an admin types them", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12,05", 1205],
    [" 0,99 ", 99],
    ["1234567.89", 123456789],
  ])("reads %j as %i minor units", (typed, minor) => {
    expect(parseMajorAmount(typed)).toBe(minor);
  });

  it.each(["", "12.345", "-3", "1e3", "12,", "douze"])("refuses %j", (typed) => {
    expect(parseMajorAmount(typed)).toBeNull();
  });

  it.each([0, 5, 99, 4400, 123456789])("writes %i minor units so that they read back the same", (minor) => {
    expect(parseMajorAmount(formatMajorAmount(minor))).toBe(minor);
  });

  it("writes the French decimal comma", () => {
    expect(formatMajorAmount(4405)).toBe("44,05");
  });

  it("requires a positive amount, a reason and the form's key", () => {
    const parsed = refundSchema.safeParse({ amount: "0", reason: "  ", idempotencyKey: "x" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["amount", "Montant invalide : un nombre positif, deux décimales au plus."],
      ["reason", "Indiquez le motif du remboursement."],
      ["idempotencyKey", "Formulaire expiré : rechargez la page."],
    ]);
  });
});
