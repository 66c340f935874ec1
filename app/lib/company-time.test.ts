import { describe, expect, it } from "vitest";
import { companyDay } from "./company-time";

describe("companyDay", () => {
  it("is the day in Amsterdam, not in UTC", () => {
    expect(companyDay(new Date("2025-03-21T23:30:00Z"))).toBe("2025-03-22");
    expect(companyDay(new Date("2025-07-01T21:59:00Z"))).toBe("2025-07-01");
    expect(companyDay(new Date("2025-07-01T22:00:00Z"))).toBe("2025-07-02");
  });
});
