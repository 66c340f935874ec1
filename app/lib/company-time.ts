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
