import { describe, expect, it } from "vitest";
import { cardBrand, cardNumberProblem, cardSchema, expiryYears, isExpired, passesLuhn } from "./card";

const now = new Date("2026-05-15T12:00:00Z");

function problems(input: Record<string, unknown>) {
  const result = cardSchema(now).safeParse({
    cardNumber: "4242 4242 4242 4242",
    expiryMonth: 12,
    expiryYear: 2027,
    cvv: "123",
    ...input,
  });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("passesLuhn", () => {
  it("accepts numbers whose check digit is right and refuses one digit off", () => {
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("5555555555554444")).toBe(true);
    expect(passesLuhn("79927398713")).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("79927398710")).toBe(false);
    expect(passesLuhn("")).toBe(false);
  });
});

describe("cardBrand", () => {
  it("knows Visa by its 4 and Mastercard by 51-55 or the 2221-2720 series", () => {
    expect(cardBrand("4000000000000002")).toBe("Visa");
    expect(cardBrand("5100000000000000")).toBe("Mastercard");
    expect(cardBrand("5555555555554444")).toBe("Mastercard");
    expect(cardBrand("2221000000000009")).toBe("Mastercard");
    expect(cardBrand("2720990000000000")).toBe("Mastercard");
    expect(cardBrand("2220990000000000")).toBeNull();
    expect(cardBrand("2721000000000000")).toBeNull();
    expect(cardBrand("5600000000000000")).toBeNull();
    expect(cardBrand("378282246310005")).toBeNull();
    expect(cardBrand("6011111111111117")).toBeNull();
  });
});

describe("cardNumberProblem", () => {
  it("takes the number with or without the spaces between groups", () => {
    expect(cardNumberProblem("4242 4242 4242 4242")).toBeNull();
    expect(cardNumberProblem("4242424242424242")).toBeNull();
    expect(cardNumberProblem("  5555 5555 5555 4444 ")).toBeNull();
    expect(cardNumberProblem("2223003122003222")).toBeNull();
  });

  it("says what is wrong, in a useful order", () => {
    expect(cardNumberProblem("")).toBe("Card number is required");
    expect(cardNumberProblem("   ")).toBe("Card number is required");
    expect(cardNumberProblem("4242-4242-4242-4242")).toBe("Card number must contain digits only");
    expect(cardNumberProblem("4242 4242 abcd 4242")).toBe("Card number must contain digits only");
    expect(cardNumberProblem("3782 822463 10005")).toBe("Only Visa and Mastercard are accepted");
    expect(cardNumberProblem("4242 4242 4242 4241")).toBe("Card number is not valid. Please check it and try again.");
    expect(cardNumberProblem("4242 4242 4242 42")).toBe("Card number is not valid. Please check it and try again.");
  });
});

describe("expiry", () => {
  it("offers the current year and the next nine", () => {
    expect(expiryYears(now)).toEqual([2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033, 2034, 2035]);
  });

  it("counts a card as valid through the end of its expiry month", () => {
    expect(isExpired(5, 2026, now)).toBe(false);
    expect(isExpired(4, 2026, now)).toBe(true);
    expect(isExpired(12, 2025, now)).toBe(true);
    expect(isExpired(1, 2027, now)).toBe(false);
  });
});

describe("cardSchema", () => {
  it("accepts a valid card and hands on the digits only", () => {
    const result = cardSchema(now).parse({
      cardNumber: "4242 4242 4242 4242",
      expiryMonth: 5,
      expiryYear: 2026,
      cvv: "123",
    });
    expect(result).toEqual({ cardNumber: "4242424242424242", expiryMonth: 5, expiryYear: 2026, cvv: "123" });
  });

  it("requires every field, with clear messages", () => {
    expect(problems({ cardNumber: undefined, expiryMonth: undefined, expiryYear: undefined, cvv: undefined })).toEqual({
      cardNumber: "Card number is required",
      expiryMonth: "Choose an expiry month from 01 to 12",
      expiryYear: "Choose an expiry year from 2026 to 2035",
      cvv: "CVV is required",
    });
  });

  it("refuses months outside 01-12 and years outside the offered ten", () => {
    expect(problems({ expiryMonth: 13 })).toEqual({ expiryMonth: "Choose an expiry month from 01 to 12" });
    expect(problems({ expiryMonth: 0 })).toEqual({ expiryMonth: "Choose an expiry month from 01 to 12" });
    expect(problems({ expiryYear: 2036 })).toEqual({ expiryYear: "Choose an expiry year from 2026 to 2035" });
    expect(problems({ expiryYear: 2025 })).toEqual({ expiryYear: "Choose an expiry year from 2026 to 2035" });
  });

  it("refuses an expired card", () => {
    expect(problems({ expiryMonth: 4, expiryYear: 2026 })).toEqual({ expiryMonth: "This card has expired" });
  });

  it("wants a CVV of 3 or 4 digits", () => {
    expect(problems({ cvv: "1234" })).toEqual({});
    expect(problems({ cvv: "12" })).toEqual({ cvv: "CVV must be 3 or 4 digits" });
    expect(problems({ cvv: "12345" })).toEqual({ cvv: "CVV must be 3 or 4 digits" });
    expect(problems({ cvv: "12a" })).toEqual({ cvv: "CVV must be 3 or 4 digits" });
  });

  it("refuses other card brands", () => {
    expect(problems({ cardNumber: "6011 1111 1111 1117" })).toEqual({
      cardNumber: "Only Visa and Mastercard are accepted",
    });
  });
});
