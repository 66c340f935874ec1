import { describe, expect, it } from "vitest";
import { newOrderNumber } from "./order-number";

describe("newOrderNumber", () => {
  it("is FT-, the timestamp, and random uppercase letters", () => {
    const number = newOrderNumber(new Date(1_795_000_000_123));
    expect(number).toMatch(/^FT-1795000000123-[A-Z]{6}$/);
  });

  it("differs between two orders of the same millisecond", () => {
    const now = new Date();
    const numbers = new Set(Array.from({ length: 50 }, () => newOrderNumber(now)));
    expect(numbers.size).toBe(50);
  });
});
