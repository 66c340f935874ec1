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

// Any instant from 2026 to 2030, to the millisecond, and as often one within three hours of a clock
// change (01:00 UTC on the last Sunday of March and of October), where the wall clock skips or repeats.
const clockChanges = ["2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31", "2028-03-26", "2028-10-29"].map((day) =>
  Date.parse(`${day}T01:00:00Z`),
);
const anchors = fc.oneof(
  fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2030-12-31T23:59:59Z"), noInvalidDate: true }),
  fc
    .tuple(fc.constantFrom(...clockChanges), fc.integer({ min: -3 * HOUR, max: 3 * HOUR }))
    .map(([change, offset]) => new Date(change + offset)),
);

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
  it("starts the first quarter at the trial's end, even in the hour the autumn clock change repeats", () => {
    // The trial ends at 02:00 on 25 October 2026, its second pass (winter time).
    const anchor = new Date("2026-10-25T01:00:00Z");
    expect(billingPeriodAfter(anchor, anchor)).toEqual(billingPeriod(anchor, 0));
    expect(billingPeriod(anchor, 0).start).toEqual(anchor);
  });

  it("brings a period chained before the anchor existed back to the anchor's day", () => {
    // Anchored on 29 November, chained: 28 February -> 28 May. The next quarter ends on 29 August.
    const anchor = new Date("2026-11-29T09:00:00Z");
    expect(billingPeriodAfter(anchor, new Date("2027-05-28T08:00:00Z"))).toEqual({
      start: new Date("2027-05-28T08:00:00Z"),
      end: new Date("2027-08-29T08:00:00Z"),
    });
  });
});
