/** The company's time zone (Amsterdam): dates read the same wherever the server or the admin is. */
export const COMPANY_TIME_ZONE = "Europe/Amsterdam";

const isoDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: COMPANY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** "YYYY-MM-DD" of `now`'s day in Amsterdam: the day the company counts orders and requests on. */
export function companyDay(now: Date): string {
  return isoDay.format(now);
}

const HOUR_MS = 3_600_000;

/** The instant Amsterdam's day `day` ("YYYY-MM-DD") begins: 23:00 or 22:00 UTC the day before. */
export function startOfCompanyDay(day: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  for (const offsetHours of [1, 2]) {
    const start = new Date(midnightUtc - offsetHours * HOUR_MS);
    if (companyDay(start) === day && companyDay(new Date(start.getTime() - 1)) !== day) return start;
  }
  throw new Error(`No start found for the day ${day} in ${COMPANY_TIME_ZONE}`);
}

/** The day ("YYYY-MM-DD") `days` calendar days after `day`. */
export function addCompanyDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 24 * HOUR_MS).toISOString().slice(0, 10);
}

/** A reading of Amsterdam's wall clock. `month` is 1-12. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  /** Milliseconds since the wall clock's midnight. */
  time: number;
}

const wallClockParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: COMPANY_TIME_ZONE,
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

function companyWallClock(instant: Date): WallClock {
  const part: Record<string, number> = {};
  for (const { type, value } of wallClockParts.formatToParts(instant)) part[type] = Number(value);
  const milliseconds = ((instant.getTime() % 1000) + 1000) % 1000;
  return {
    year: part.year!,
    month: part.month!,
    day: part.day!,
    time: ((part.hour! * 60 + part.minute!) * 60 + part.second!) * 1000 + milliseconds,
  };
}

/** The wall clock read as if it were UTC: a plain count to compare and subtract readings with. */
function wallAsUtc({ year, month, day, time }: WallClock): number {
  return Date.UTC(year, month - 1, day) + time;
}

/**
 * The instant Amsterdam's clock reads `wall`. A reading the clocks skip in spring (02:30 on the last
 * Sunday of March) is taken an hour later, after the skip; one they pass twice in autumn is taken at
 * its first pass: the rule of Temporal's "compatible" disambiguation.
 */
function fromCompanyWallClock(wall: WallClock): Date {
  const target = wallAsUtc(wall);
  const offsetAt = (instant: number) => wallAsUtc(companyWallClock(new Date(instant))) - instant;
  const offsetBefore = offsetAt(target - 2 * 24 * HOUR_MS);
  const offsetAfter = offsetAt(target + 2 * 24 * HOUR_MS);
  const readings = [target - Math.max(offsetBefore, offsetAfter), target - Math.min(offsetBefore, offsetAfter)];
  const exact = readings.find((instant) => offsetAt(instant) === target - instant);
  return new Date(exact ?? target - offsetBefore);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `months` calendar months after the day, its day of the month clamped to the last day of a shorter month. */
function monthsLater<T extends { year: number; month: number; day: number }>(date: T, months: number): T {
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return { ...date, year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/**
 * `months` calendar months after `instant` on Amsterdam's wall clock: the same day of the month at the
 * same time, or the month's last day when it is shorter (31 January + 1 month is 28 or 29 February),
 * as Stripe bills from a billing cycle anchor. Every period in months starts from its anchor with this,
 * never from the last result: 28 February + 1 month is 28 March, whatever the anchor was.
 */
export function companyMonthsLater(instant: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new Error(`Months must be whole, got ${months}`);
  // Read back from the wall clock, an instant at the autumn's second pass would move to its first.
  if (months === 0) return new Date(instant);
  return fromCompanyWallClock(monthsLater(companyWallClock(instant), months));
}

/** `days` calendar days after `instant` on Amsterdam's wall clock: the same time of day, 23 or 25 hours later across a clock change. */
export function companyDaysLater(instant: Date, days: number): Date {
  if (!Number.isInteger(days)) throw new Error(`Days must be whole, got ${days}`);
  if (days === 0) return new Date(instant);
  const wall = companyWallClock(instant);
  const later = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return fromCompanyWallClock({
    ...wall,
    year: later.getUTCFullYear(),
    month: later.getUTCMonth() + 1,
    day: later.getUTCDate(),
  });
}

/** Whole calendar months from `from` to `to` on Amsterdam's wall clock, by month alone (the days are not compared). */
export function companyMonthsBetween(from: Date, to: Date): number {
  const start = companyWallClock(from);
  const end = companyWallClock(to);
  return (end.year - start.year) * 12 + (end.month - start.month);
}

/** The day ("YYYY-MM-DD") `months` calendar months after `day`, clamped to a shorter month's last day. */
export function addCompanyMonths(day: string, months: number): string {
  const [year, month, dayOfMonth] = day.split("-").map(Number) as [number, number, number];
  const later = monthsLater({ year, month, day: dayOfMonth }, months);
  return `${String(later.year).padStart(4, "0")}-${String(later.month).padStart(2, "0")}-${String(later.day).padStart(2, "0")}`;
}
