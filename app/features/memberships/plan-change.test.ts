import { describe, expect, it } from "vitest";
import { planChangeKind, proratedDifference, prorationDate } from "./plan-change";

// Medium 4900 to Premium 7900: a difference of 3000 a quarter.
const fees = { fromFee: 4900, toFee: 7900 };

describe("proratedDifference", () => {
  it.each([
    // A quarter of 90 days, 1 December 2026 to 1 March 2027 (Amsterdam midnight, UTC+1).
    ["the quarter's first day", "2026-11-30T23:00:00Z", "2027-02-28T23:00:00Z", "2026-12-01T08:00:00Z", 3000],
    ["its second day: 89 of 90", "2026-11-30T23:00:00Z", "2027-02-28T23:00:00Z", "2026-12-02T08:00:00Z", 2967],
    ["its last day: 1 of 90", "2026-11-30T23:00:00Z", "2027-02-28T23:00:00Z", "2027-02-28T20:00:00Z", 33],
    [
      "the next quarter's first day: nothing",
      "2026-11-30T23:00:00Z",
      "2027-02-28T23:00:00Z",
      "2027-02-28T23:00:00Z",
      0,
    ],
    // A leap quarter, 29 November 2027 to 29 February 2028 (92 days): 29 February is its end.
    [
      "28 February of a leap quarter: 1 of 92",
      "2027-11-28T23:00:00Z",
      "2028-02-28T23:00:00Z",
      "2028-02-28T12:00:00Z",
      33,
    ],
    ["29 February, the leap quarter's end", "2027-11-28T23:00:00Z", "2028-02-28T23:00:00Z", "2028-02-29T12:00:00Z", 0],
    // 45 days left of 90: exactly half. 46 of 92: 1500.
    ["the middle of a quarter", "2026-11-30T23:00:00Z", "2027-02-28T23:00:00Z", "2027-01-15T10:00:00Z", 1500],
    // Across the spring clock change: 31 March 2027 (UTC+2) counts as a whole day.
    ["across a clock change", "2027-02-28T23:00:00Z", "2027-05-31T22:00:00Z", "2027-03-31T09:00:00Z", 2022],
  ])("%s", (_, start, end, now, expected) => {
    expect(
      proratedDifference({ ...fees, periodStart: new Date(start), periodEnd: new Date(end), now: new Date(now) }),
    ).toBe(expected);
  });

  it("rounds a half up, and is never negative", () => {
    // 3 days left of 90 of 2000: 66.67 -> 67; 1 day of 8 of 4: 0.5 -> 1.
    const quarter = { periodStart: new Date("2026-11-30T23:00:00Z"), periodEnd: new Date("2027-02-28T23:00:00Z") };
    expect(proratedDifference({ fromFee: 0, toFee: 2000, ...quarter, now: new Date("2027-02-26T12:00:00Z") })).toBe(67);
    const week = { periodStart: new Date("2026-11-30T23:00:00Z"), periodEnd: new Date("2026-12-08T23:00:00Z") };
    expect(proratedDifference({ fromFee: 0, toFee: 4, ...week, now: new Date("2026-12-08T12:00:00Z") })).toBe(1);
    expect(proratedDifference({ fromFee: 7900, toFee: 4900, ...quarter, now: new Date("2026-12-02T12:00:00Z") })).toBe(
      0,
    );
  });
});

describe("prorationDate", () => {
  // The share of the period's seconds still to come is the share of its days: 45 of 90, 1 of 92...
  it.each([
    [
      "the quarter's first day: its start",
      "2026-11-30T23:00:00Z",
      "2027-02-28T23:00:00Z",
      "2026-12-01T20:00:00Z",
      "2026-11-30T23:00:00Z",
    ],
    [
      "the middle of the quarter, any hour of the day",
      "2026-11-30T23:00:00Z",
      "2027-02-28T23:00:00Z",
      "2027-01-15T22:59:59Z",
      "2027-01-14T23:00:00Z",
    ],
    [
      "28 February of a leap quarter: 1 of 92",
      "2027-11-28T23:00:00Z",
      "2028-02-28T23:00:00Z",
      "2028-02-28T00:30:00Z",
      "2028-02-27T23:00:00Z",
    ],
    [
      "29 February, the leap quarter's end",
      "2027-11-28T23:00:00Z",
      "2028-02-28T23:00:00Z",
      "2028-02-29T12:00:00Z",
      "2028-02-28T23:00:00Z",
    ],
    // 92 days of 2,207 hours (the spring change takes one): 62 days left is 62/92 of them, to the second.
    [
      "across a clock change",
      "2027-02-28T23:00:00Z",
      "2027-05-31T22:00:00Z",
      "2027-03-31T09:00:00Z",
      "2027-03-30T22:40:26Z",
    ],
  ])("%s", (_, start, end, now, expected) => {
    expect(
      prorationDate({ periodStart: new Date(start), periodEnd: new Date(end), now: new Date(now) }).toISOString(),
    ).toBe(new Date(expected).toISOString());
  });
});

describe("planChangeKind", () => {
  const active = {
    plan: "medium" as const,
    status: "active" as const,
    cancelAtPeriodEnd: false,
    currentPeriodStart: new Date("2026-11-30T23:00:00Z"),
    currentPeriodEnd: new Date("2027-02-28T23:00:00Z"),
  };
  const now = new Date("2027-01-15T10:00:00Z");

  it("upgrades at once for the prorated difference, downgrades from the next quarter, and changes a trial's plan", () => {
    expect(planChangeKind(active, "premium", now)).toEqual({ kind: "upgrade", amount: 1500 });
    expect(planChangeKind({ ...active, plan: "premium" }, "medium", now)).toEqual({
      kind: "downgrade",
      from: active.currentPeriodEnd,
    });
    expect(planChangeKind({ ...active, status: "trialing" }, "premium", now)).toEqual({ kind: "trial" });
  });

  it("refuses the same plan, a past-due, ended or ending membership", () => {
    expect(planChangeKind(active, "medium", now)).toEqual({ kind: "refused", reason: "same" });
    expect(planChangeKind({ ...active, status: "past_due" }, "premium", now)).toMatchObject({ kind: "refused" });
    expect(planChangeKind({ ...active, status: "ended" }, "premium", now)).toMatchObject({ kind: "refused" });
    expect(planChangeKind({ ...active, cancelAtPeriodEnd: true }, "premium", now)).toMatchObject({ kind: "refused" });
  });
});
