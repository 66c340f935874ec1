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
