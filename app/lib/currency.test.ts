import { describe, expect, it } from "vitest";
import { currencyByCode, formatPrice, isCurrencyCode } from "./currency";

describe("formatPrice", () => {
  it("puts the chosen currency's symbol before a whole price", () => {
    expect(formatPrice(49, "USD")).toBe("$49");
    expect(formatPrice(79, "EUR")).toBe("€79");
    expect(formatPrice(11, "GBP")).toBe("£11");
  });

  it("shows two decimals only for a fractional price", () => {
    expect(formatPrice(5.5, "EUR")).toBe("€5.50");
  });
});

describe("isCurrencyCode", () => {
  it("accepts the three supported codes and nothing else", () => {
    expect(["USD", "EUR", "GBP"].every(isCurrencyCode)).toBe(true);
    expect(["usd", "JPY", "", undefined, 1].some(isCurrencyCode)).toBe(false);
  });
});

describe("currencyByCode", () => {
  it("converts nothing: every rate is 1", () => {
    expect(currencyByCode("GBP")).toMatchObject({ symbol: "£", label: "Great Britain Pounds", rate: 1 });
  });
});
