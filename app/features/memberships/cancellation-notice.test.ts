import { describe, expect, it } from "vitest";
import { noticeEnd } from "./cancellation-notice";
import { MEMBERSHIP_TERMS } from "./membership-terms";

// A quarter of 90 days: 10 January to 10 April 2025, noon UTC.
const start = new Date("2025-01-10T12:00:00Z");
const end = new Date("2025-04-10T12:00:00Z");
const quarter = (amount: number, refunded = 0) => ({ start, end, amount, refunded });

describe("a cancellation with one month's notice", () => {
  it("gives one month's notice", () => {
    expect(MEMBERSHIP_TERMS.noticeMonths).toBe(1);
  });

  it("ends a month after the request and refunds the rest of the quarter pro rata", () => {
    // 15 February to 10 April is 54 of the 90 days.
    expect(noticeEnd(new Date("2025-01-15T12:00:00Z"), quarter(4900))).toEqual({
      endsAt: new Date("2025-02-15T12:00:00Z"),
      refund: 2940,
    });
  });

  it("gives the member the odd minor unit: the company keeps the used share rounded down", () => {
    // Used: 4999 × 36 / 90 = 1999.6, kept 1999.
    expect(noticeEnd(new Date("2025-01-15T12:00:00Z"), quarter(4999)).refund).toBe(3000);
    // To the millisecond: 1 ms more used keeps 1960.00…, still 1960.
    expect(noticeEnd(new Date("2025-01-15T12:00:00.001Z"), quarter(4900)).refund).toBe(2940);
    // A fee of one cent, 36 of 90 days used: nothing is kept.
    expect(noticeEnd(new Date("2025-01-15T12:00:00Z"), quarter(1)).refund).toBe(1);
  });

  it("counts what was refunded of the quarter already", () => {
    expect(noticeEnd(new Date("2025-01-15T12:00:00Z"), quarter(4900, 1000)).refund).toBe(1940);
    expect(noticeEnd(new Date("2025-01-15T12:00:00Z"), quarter(4900, 4900)).refund).toBe(0);
  });

  it("ends with the quarter, refunding nothing, when the quarter ends within the month", () => {
    // A month before the quarter's end on Amsterdam's clock (14:00), with the clocks gone forward between.
    expect(noticeEnd(new Date("2025-03-10T13:00:00Z"), quarter(4900))).toEqual({ endsAt: end, refund: 0 });
    expect(noticeEnd(new Date("2025-03-25T08:00:00Z"), quarter(4900))).toEqual({ endsAt: end, refund: 0 });
  });

  it("keeps the calendar month at a month's end, clamped to a shorter month's last day", () => {
    const long = {
      start: new Date("2025-01-31T12:00:00Z"),
      end: new Date("2025-04-30T12:00:00Z"),
      amount: 8900,
      refunded: 0,
    };
    // 31 January plus a month is 28 February; 28 February to 30 April is 61 of the 89 days.
    expect(noticeEnd(new Date("2025-01-31T12:00:00Z"), long)).toEqual({
      endsAt: new Date("2025-02-28T12:00:00Z"),
      refund: Math.floor((8900 * 61) / 89),
    });
  });
});
