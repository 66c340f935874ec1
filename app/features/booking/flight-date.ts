import { format } from "date-fns";

/**
 * Which flight dates can be booked. A date is a plain calendar day ("2025-06-30") with no time
 * zone, so "today" must pick one: we use the date in UTC-12, the last time zone on Earth to reach a
 * new day. Whatever the traveller's zone, their today is never earlier than that, so nobody is
 * refused today; yesterday is refused everywhere once UTC-12 has left it.
 */
const EARLIEST_ZONE_OFFSET_MS = -12 * 60 * 60 * 1000;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** "YYYY-MM-DD" of the earliest bookable day at `now`. */
export function earliestFlightDate(now: Date): string {
  return new Date(now.getTime() + EARLIEST_ZONE_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether `value` is a real calendar day written "YYYY-MM-DD" (rejects "2025-02-30"). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** The local calendar day of `date` as "YYYY-MM-DD" (the calendar widget works in local days). */
export function localIsoDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local-midnight Date of a "YYYY-MM-DD" day, for the calendar widget. */
export function dateFromIsoDate(value: string): Date {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
}

/** "Tuesday 1 July 2025". */
export function formatFlightDate(value: string): string {
  return format(dateFromIsoDate(value), "EEEE d MMMM yyyy");
}
