import { describe, expect, it } from "vitest";
import { fastTrackRefund, unusedFeeRefund } from "./withdrawal-refunds";

const start = new Date("2026-07-01T10:00:00Z");
const end = new Date("2026-10-01T10:00:00Z");
const at = (fraction: number) => new Date(start.getTime() + (end.getTime() - start.getTime()) * fraction);

describe("unusedFeeRefund", () => {
  it("refunds the whole fee when none of its period was used", () => {
    expect(unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: start, refundedBefore: 0 })).toBe(
      4900,
    );
  });

  it("refunds the whole fee of a period that has not started", () => {
    const before = new Date(start.getTime() - 60_000);
    expect(
      unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: before, refundedBefore: 0 }),
    ).toBe(4900);
  });

  it("keeps the used share rounded down, so the consumer gets the odd minor unit", () => {
    // A third of 4900 is 1633.33: 1633 is kept, 3267 refunded.
    expect(
      unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: at(1 / 3), refundedBefore: 0 }),
    ).toBe(3267);
  });

  it("takes off what was refunded before, and never goes below zero", () => {
    expect(
      unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: at(0.5), refundedBefore: 1000 }),
    ).toBe(1450);
    expect(
      unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: at(0.5), refundedBefore: 4900 }),
    ).toBe(0);
  });

  it("refunds nothing of a period that is over", () => {
    const after = new Date(end.getTime() + 60_000);
    expect(unusedFeeRefund({ amount: 4900, periodStart: start, periodEnd: end, until: after, refundedBefore: 0 })).toBe(
      0,
    );
  });
});

describe("fastTrackRefund", () => {
  const paid = { status: "paid", amount: 3500, refundedBefore: 0, today: "2026-07-10" };

  it("refunds all that is left while the flight day is still to come", () => {
    expect(fastTrackRefund({ ...paid, flightDate: "2026-07-11" })).toBe(3500);
    expect(fastTrackRefund({ ...paid, flightDate: "2026-07-11", refundedBefore: 500 })).toBe(3000);
  });

  it("refunds nothing once the flight day has come: the service was provided", () => {
    expect(fastTrackRefund({ ...paid, flightDate: "2026-07-10" })).toBe(0);
    expect(fastTrackRefund({ ...paid, flightDate: "2026-07-01" })).toBe(0);
  });

  it("refunds nothing of an order that is completed, refunded, or has no flight date", () => {
    expect(fastTrackRefund({ ...paid, status: "completed", flightDate: "2026-08-01" })).toBe(0);
    expect(fastTrackRefund({ ...paid, status: "refunded", flightDate: "2026-08-01" })).toBe(0);
    expect(fastTrackRefund({ ...paid, flightDate: null })).toBe(0);
  });
});
