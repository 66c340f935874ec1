import { describe, expect, it } from "vitest";
import { formatMajorAmount, parseMajorAmount } from "./refund";

describe("formatMajorAmount, the refund form's prefilled amount", () => {
  it.each([
    [0, "0,00"],
    [5, "0,05"],
    [99, "0,99"],
    [4405, "44,05"],
    [123456789, "1234567,89"],
  ])("writes %i minor units as %j, which the form reads back the same", (minor, typed) => {
    expect(formatMajorAmount(minor)).toBe(typed);
    expect(parseMajorAmount(typed)).toBe(minor);
  });
});
