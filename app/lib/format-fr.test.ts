import { describe, expect, it } from "vitest";
import {
  formatAmountFr,
  formatCountFr,
  formatDateFr,
  formatDateTimeFr,
  formatDayFr,
  formatDurationFr,
} from "./format-fr";

describe("formatAmountFr", () => {
  it.each([
    [3300, "EUR", "33,00\u00a0€"],
    [5, "EUR", "0,05\u00a0€"],
    [0, "EUR", "0,00\u00a0€"],
    [123456789, "EUR", "1\u202f234\u202f567,89\u00a0€"],
    [1100, "USD", "11,00\u00a0$"],
    [-2550, "GBP", "-25,50\u00a0£"],
  ] as const)("formats %i minor units of %s as %j", (amount, code, expected) => {
    expect(formatAmountFr(amount, code)).toBe(expected);
  });
});

describe("formatDateTimeFr", () => {
  it("writes day/month/year and a 24-hour time in Amsterdam time", () => {
    expect(formatDateTimeFr(new Date("2025-06-24T12:05:00Z"))).toBe("24/06/2025 14:05");
    expect(formatDateTimeFr(new Date("2025-01-02T23:30:00Z"))).toBe("03/01/2025 00:30");
  });
});

describe("formatDateFr", () => {
  it("writes the day in Amsterdam, which may not be the UTC day", () => {
    expect(formatDateFr(new Date("2025-06-24T12:05:00Z"))).toBe("24/06/2025");
    expect(formatDateFr(new Date("2025-01-02T23:30:00Z"))).toBe("03/01/2025");
  });
});

describe("formatCountFr", () => {
  it("groups thousands with a narrow no-break space", () => {
    expect(formatCountFr(7)).toBe("7");
    expect(formatCountFr(1000000)).toBe("1\u202f000\u202f000");
  });
});

describe("formatDayFr", () => {
  it("writes the day first", () => {
    expect(formatDayFr("2025-03-09")).toBe("09/03/2025");
  });
});

describe("formatDurationFr", () => {
  it.each([
    [0, "0\u00a0ms"],
    [42.4, "42\u00a0ms"],
    [2_400, "2,4\u00a0s"],
    [3_000, "3\u00a0s"],
    [12_400, "12\u00a0s"],
    [125_000, "2\u00a0min 05\u00a0s"],
    [3_725_000, "1\u00a0h 02\u00a0min"],
  ])("writes %i ms as %s, each number kept with its unit", (ms, expected) => {
    expect(formatDurationFr(ms)).toBe(expected);
  });
});
