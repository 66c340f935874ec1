import { describe, expect, it } from "vitest";
import { vatIncluded, vatRateOn } from "./vat";

describe("vatRateOn", () => {
  const rates = [
    { since: "2012-10-01", percent: 21 },
    { since: "2027-01-01", percent: 22 },
  ];

  it("takes the rate of the Amsterdam day the document was issued", () => {
    expect(vatRateOn(new Date("2026-12-31T22:59:59Z"), rates)).toBe(21);
    // 23:00 UTC on 31 December is already New Year's Day in Amsterdam.
    expect(vatRateOn(new Date("2026-12-31T23:00:00Z"), rates)).toBe(22);
  });

  it("reads the rates in any order", () => {
    expect(vatRateOn(new Date("2027-06-30T12:00:00Z"), [...rates].reverse())).toBe(22);
  });

  it("refuses a day before any rate", () => {
    expect(() => vatRateOn(new Date("2012-09-30T12:00:00Z"), rates)).toThrow("No VAT rate");
  });
});

describe("vatIncluded", () => {
  it("finds the VAT in a price that includes it", () => {
    expect(vatIncluded(4900, 21)).toBe(850); // 4900 × 21 / 121 = 850.41
    expect(vatIncluded(12100, 21)).toBe(2100);
    expect(vatIncluded(0, 21)).toBe(0);
  });

  it("rounds a credit note's VAT as its invoice's, with the sign", () => {
    expect(vatIncluded(-4900, 21)).toBe(-850);
    expect(vatIncluded(-1, 21)).toBe(0); // never a "-0" on paper
  });
});
