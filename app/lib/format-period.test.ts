import { describe, expect, it } from "vitest";
import { formatPeriod } from "./format-period";

describe("formatPeriod", () => {
  it("writes a single unit out in words", () => {
    expect(formatPeriod(1, "month")).toBe("one month");
    expect(formatPeriod(1, "year")).toBe("one year");
  });

  it("writes several units as a number and a plural", () => {
    expect(formatPeriod(48, "hour")).toBe("48 hours");
    expect(formatPeriod(6, "year")).toBe("6 years");
  });

  it("refuses a period that is not a positive whole number", () => {
    expect(() => formatPeriod(0, "day")).toThrow();
    expect(() => formatPeriod(1.5, "year")).toThrow();
  });
});
