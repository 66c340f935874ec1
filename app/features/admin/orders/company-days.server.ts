import { sql, type SQL } from "drizzle-orm";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";

// The back office counts days as the company lives them, in Amsterdam (as every date it shows),
// not in UTC: an order at 00:30 on the 5th belongs to the 5th in the list, the filter and the charts.

/** The instant a day ("YYYY-MM-DD") starts in Amsterdam; a constant for the planner, so indexes serve. */
export const companyDayStart = (isoDay: string): SQL => sql`(${isoDay}::timestamp at time zone ${COMPANY_TIME_ZONE})`;

/** The instant the day after `isoDay` starts: the end of a half-open range that includes `isoDay`. */
export const companyDayEnd = (isoDay: string): SQL =>
  sql`((${isoDay}::date + 1)::timestamp at time zone ${COMPANY_TIME_ZONE})`;
