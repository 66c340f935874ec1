import { describe, expect, it } from "vitest";
import { earliestFlightDate, formatFlightDate, isIsoDate, localIsoDate } from "./flight-date";

describe("earliestFlightDate", () => {
  it("is today in UTC-12, so that no time zone on Earth is refused its today", () => {
    // 11:59 UTC is 23:59 the previous day in UTC-12; 12:00 UTC is midnight there.
    expect(earliestFlightDate(new Date("2026-05-15T11:59:00Z"))).toBe("2026-05-14");
    expect(earliestFlightDate(new Date("2026-05-15T12:00:00Z"))).toBe("2026-05-15");
    // Kiritimati (UTC+14) at 01:00 on the 16th is 11:00 UTC on the 15th: its today is allowed.
    expect(earliestFlightDate(new Date("2026-05-15T11:00:00Z")) <= "2026-05-16").toBe(true);
  });
});

describe("isIsoDate", () => {
  it("accepts only real days written YYYY-MM-DD", () => {
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2027-02-29")).toBe(false);
    expect(isIsoDate("2026-13-01")).toBe(false);
    expect(isIsoDate("2026-6-1")).toBe(false);
    expect(isIsoDate("")).toBe(false);
  });
});

describe("local days", () => {
  it("write a Date's local day and read it back for display", () => {
    expect(localIsoDate(new Date(2026, 0, 2, 23, 30))).toBe("2026-01-02");
    expect(formatFlightDate("2030-01-02")).toBe("Wednesday 2 January 2030");
  });
});
