import { describe, expect, it } from "vitest";
import {
  addCompanyDays,
  addCompanyMonths,
  companyDay,
  companyDaysLater,
  companyMonthsBetween,
  companyMonthsLater,
  startOfCompanyDay,
} from "./company-time";

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

describe("companyMonthsLater", () => {
  const at = (iso: string, months: number) => companyMonthsLater(new Date(iso), months).toISOString();

  it("keeps the day and the time of day in Amsterdam, clamping to a shorter month's last day", () => {
    // 31 January 2027, 10:00 in Amsterdam (winter time).
    expect(at("2027-01-31T09:00:00.000Z", 1)).toBe("2027-02-28T09:00:00.000Z");
    expect(at("2027-01-31T09:00:00.000Z", 2)).toBe("2027-03-31T08:00:00.000Z");
    expect(at("2027-01-31T09:00:00.000Z", 3)).toBe("2027-04-30T08:00:00.000Z");
    expect(at("2027-11-30T09:00:00.000Z", 3)).toBe("2028-02-29T09:00:00.000Z");
    expect(at("2028-02-29T09:00:00.000Z", 12)).toBe("2029-02-28T09:00:00.000Z");
    expect(at("2026-12-31T09:00:00.000Z", 2)).toBe("2027-02-28T09:00:00.000Z");
  });

  it("counts Amsterdam's day, not UTC's, late in the evening", () => {
    // 00:30 on 1 February in Amsterdam is still 31 January in UTC.
    expect(at("2027-01-31T23:30:00.000Z", 1)).toBe("2027-02-28T23:30:00.000Z");
    // 00:30 on 31 January in Amsterdam: the last day of February in Amsterdam.
    expect(at("2027-01-30T23:30:00.000Z", 1)).toBe("2027-02-27T23:30:00.000Z");
  });

  it("moves backwards as well", () => {
    expect(at("2027-03-31T08:00:00.000Z", -1)).toBe("2027-02-28T09:00:00.000Z");
  });

  it("takes a time the spring clock change skips an hour later, and a repeated autumn hour at its first pass", () => {
    // 02:30 on 28 February 2027 (winter time) + 1 month: 02:30 does not exist on 28 March 2027.
    expect(at("2027-02-28T01:30:00.000Z", 1)).toBe("2027-03-28T01:30:00.000Z");
    // 02:30 on 30 September 2027 (summer time) + 1 month: 31 October passes 02:30 twice.
    expect(at("2027-09-30T00:30:00.000Z", 1)).toBe("2027-10-30T00:30:00.000Z");
    expect(at("2027-08-31T00:30:00.000Z", 2)).toBe("2027-10-31T00:30:00.000Z");
  });

  it("leaves an instant in the autumn's repeated hour where it is when no months are added", () => {
    // 02:00 on 25 October 2026 at its second pass (winter time): the first pass is an hour earlier.
    expect(at("2026-10-25T01:00:00.000Z", 0)).toBe("2026-10-25T01:00:00.000Z");
    expect(at("2026-10-25T00:30:00.000Z", 0)).toBe("2026-10-25T00:30:00.000Z");
    expect(companyDaysLater(new Date("2026-10-25T01:30:00.000Z"), 0).toISOString()).toBe("2026-10-25T01:30:00.000Z");
  });
});

describe("companyDaysLater", () => {
  it("keeps the time of day in Amsterdam, 23 or 25 hours a day across a clock change", () => {
    expect(companyDaysLater(new Date("2027-03-26T09:00:00.000Z"), 3).toISOString()).toBe("2027-03-29T08:00:00.000Z");
    expect(companyDaysLater(new Date("2027-10-29T08:00:00.000Z"), 3).toISOString()).toBe("2027-11-01T09:00:00.000Z");
    expect(companyDaysLater(new Date("2028-02-27T12:00:00.000Z"), 3).toISOString()).toBe("2028-03-01T12:00:00.000Z");
  });
});

describe("companyMonthsBetween", () => {
  it("counts calendar months by Amsterdam's month alone", () => {
    expect(companyMonthsBetween(new Date("2026-11-29T12:00:00Z"), new Date("2027-02-28T12:00:00Z"))).toBe(3);
    expect(companyMonthsBetween(new Date("2026-11-29T12:00:00Z"), new Date("2027-05-28T12:00:00Z"))).toBe(6);
    // 31 December 23:30 UTC is already January in Amsterdam.
    expect(companyMonthsBetween(new Date("2026-12-01T12:00:00Z"), new Date("2026-12-31T23:30:00Z"))).toBe(1);
  });
});

describe("addCompanyMonths", () => {
  it("adds months to a day, clamped to a shorter month's last day", () => {
    expect(addCompanyMonths("2027-01-31", 1)).toBe("2027-02-28");
    expect(addCompanyMonths("2028-01-30", 1)).toBe("2028-02-29");
    expect(addCompanyMonths("2026-12-31", 1)).toBe("2027-01-31");
    expect(addCompanyMonths("2027-05-31", 1)).toBe("2027-06-30");
    expect(addCompanyMonths("2027-03-15", 1)).toBe("2027-04-15");
  });
});
