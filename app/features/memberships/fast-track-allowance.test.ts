import { describe, expect, it } from "vitest";
import {
  accessesLeftLine,
  allowanceMonth,
  allowanceStanding,
  freePassengers,
  monthlyFreeAccesses,
} from "./fast-track-allowance";

describe("the monthly free fast-track accesses", () => {
  it("come from site.config.ts's plans: Medium 2, Premium 5", () => {
    expect(monthlyFreeAccesses("medium")).toBe(2);
    expect(monthlyFreeAccesses("premium")).toBe(5);
  });

  it.each([
    // Amsterdam's months, in winter (UTC+1) and summer (UTC+2) time, and across a leap day.
    ["2027-01-31T22:59:59Z", "January", "2026-12-31T23:00:00.000Z", "2027-01-31T23:00:00.000Z"],
    ["2027-01-31T23:00:00Z", "February", "2027-01-31T23:00:00.000Z", "2027-02-28T23:00:00.000Z"],
    ["2028-02-29T12:00:00Z", "February", "2028-01-31T23:00:00.000Z", "2028-02-29T23:00:00.000Z"],
    // March has the spring clock change: it starts at UTC+1 and ends at UTC+2.
    ["2027-03-31T21:59:59Z", "March", "2027-02-28T23:00:00.000Z", "2027-03-31T22:00:00.000Z"],
    ["2027-10-31T23:30:00Z", "November", "2027-10-31T23:00:00.000Z", "2027-11-30T23:00:00.000Z"],
  ])("%s falls in Amsterdam's %s", (now, name, start, end) => {
    const month = allowanceMonth(new Date(now));
    expect(month).toEqual({ name, start: new Date(start), end: new Date(end) });
  });

  it("are open from the first paid quarter, not in the trial, not while past due, not once over", () => {
    const period = {
      currentPeriodStart: new Date("2027-01-01T00:00:00Z"),
      currentPeriodEnd: new Date("2027-04-01T00:00:00Z"),
    };
    const now = new Date("2027-02-15T12:00:00Z");
    expect(allowanceStanding({ ...period, status: "active", now })).toEqual({ kind: "open" });
    expect(allowanceStanding({ ...period, status: "trialing", now })).toEqual({
      kind: "after-trial",
      from: period.currentPeriodEnd,
    });
    expect(allowanceStanding({ ...period, status: "past_due", now })).toEqual({ kind: "past-due" });
    expect(allowanceStanding({ ...period, status: "cancelled", now })).toEqual({ kind: "none" });
    expect(allowanceStanding({ ...period, status: "ended", now })).toEqual({ kind: "none" });
    // An active row whose period has run out (the job has not renewed it yet) gives nothing.
    expect(allowanceStanding({ ...period, status: "active", now: period.currentPeriodEnd })).toEqual({ kind: "none" });
  });

  it("cover as many passengers as are left, adults first", () => {
    expect(freePassengers({ adults: 2, children: 1 }, 2)).toEqual({ adults: 2, children: 0 });
    expect(freePassengers({ adults: 1, children: 2 }, 2)).toEqual({ adults: 1, children: 1 });
    expect(freePassengers({ adults: 3, children: 0 }, 5)).toEqual({ adults: 3, children: 0 });
    expect(freePassengers({ adults: 2, children: 0 }, 0)).toEqual({ adults: 0, children: 0 });
    expect(freePassengers({ adults: 2, children: 0 }, -1)).toEqual({ adults: 0, children: 0 });
  });

  it("are told as the booking form says them", () => {
    expect(accessesLeftLine(2, 2, "December")).toBe("2 of 2 free accesses left in December");
    expect(accessesLeftLine(0, 5, "February")).toBe("0 of 5 free accesses left in February");
  });
});
