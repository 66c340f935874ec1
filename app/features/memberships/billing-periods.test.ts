import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { billingPeriod, billingPeriodAfter } from "./billing-periods";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const amsterdam = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

function wall(instant: Date) {
  const part = Object.fromEntries(amsterdam.formatToParts(instant).map(({ type, value }) => [type, Number(value)]));
  return { year: part.year!, month: part.month!, day: part.day!, minutes: part.hour! * 60 + part.minute! };
}

const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

// Any instant from 2026 to 2030, to the millisecond.
const anchors = fc.date({
  min: new Date("2026-01-01T00:00:00Z"),
  max: new Date("2030-12-31T23:59:59Z"),
  noInvalidDate: true,
});

describe("billingPeriod", () => {
  it("chains without gaps, lasts 89 to 92 days, and keeps the anchor's day and time in Amsterdam", () => {
    fc.assert(
      fc.property(anchors, fc.integer({ min: 0, max: 12 }), (anchor, n) => {
        const period = billingPeriod(anchor, n);
        const next = billingPeriod(anchor, n + 1);
        expect(next.start).toEqual(period.end);
        const length = period.end.getTime() - period.start.getTime();
        // A clock change inside the quarter makes it an hour longer or shorter.
        expect(length).toBeGreaterThanOrEqual(89 * DAY - HOUR);
        expect(length).toBeLessThanOrEqual(92 * DAY + HOUR);

        const anchorWall = wall(anchor);
        const startWall = wall(period.start);
        const months = (startWall.year - anchorWall.year) * 12 + startWall.month - anchorWall.month;
        expect(months).toBe(3 * n);
        expect(startWall.day).toBe(Math.min(anchorWall.day, lastDayOf(startWall.year, startWall.month)));
        // The same time of day, but for the hour the spring clock change skips (taken an hour later).
        expect([anchorWall.minutes, anchorWall.minutes + 60]).toContain(startWall.minutes);
      }),
      { numRuns: 2000 },
    );
  });

  it("is followed, after the trial or any period, by the anchor's next period", () => {
    fc.assert(
      fc.property(anchors, fc.integer({ min: 0, max: 12 }), (anchor, n) => {
        expect(billingPeriodAfter(anchor, anchor)).toEqual(billingPeriod(anchor, 0));
        expect(billingPeriodAfter(anchor, billingPeriod(anchor, n).end)).toEqual(billingPeriod(anchor, n + 1));
      }),
      { numRuns: 500 },
    );
  });
});

describe("billingPeriodAfter", () => {
  it("brings a period chained before the anchor existed back to the anchor's day", () => {
    // Anchored on 29 November, chained: 28 February -> 28 May. The next quarter ends on 29 August.
    const anchor = new Date("2026-11-29T09:00:00Z");
    expect(billingPeriodAfter(anchor, new Date("2027-05-28T08:00:00Z"))).toEqual({
      start: new Date("2027-05-28T08:00:00Z"),
      end: new Date("2027-08-29T08:00:00Z"),
    });
  });
});
