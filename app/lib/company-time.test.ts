import { describe, expect, it } from "vitest";
import { addCompanyDays, companyDay, startOfCompanyDay } from "./company-time";

describe("companyDay", () => {
  it("is the day in Amsterdam, not in UTC", () => {
    expect(companyDay(new Date("2025-03-21T23:30:00Z"))).toBe("2025-03-22");
    expect(companyDay(new Date("2025-07-01T21:59:00Z"))).toBe("2025-07-01");
    expect(companyDay(new Date("2025-07-01T22:00:00Z"))).toBe("2025-07-02");
  });
});

describe("startOfCompanyDay", () => {
  it("is midnight in Amsterdam, in winter and in summer time", () => {
    expect(startOfCompanyDay("2026-01-15").toISOString()).toBe("2026-01-14T23:00:00.000Z");
    expect(startOfCompanyDay("2026-07-15").toISOString()).toBe("2026-07-14T22:00:00.000Z");
  });

  it("handles the days the clocks change", () => {
    expect(startOfCompanyDay("2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(startOfCompanyDay("2026-10-25").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(companyDay(new Date(startOfCompanyDay("2026-10-25").getTime() - 1))).toBe("2026-10-24");
  });
});

describe("addCompanyDays", () => {
  it("counts calendar days across months and years", () => {
    expect(addCompanyDays("2026-12-25", 14)).toBe("2027-01-08");
    expect(addCompanyDays("2026-03-20", 15)).toBe("2026-04-04");
  });
});
