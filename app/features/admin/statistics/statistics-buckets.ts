import { formatDayFr } from "~/lib/format-fr";
import { addDays, type Granularity, type StatisticsPeriod } from "./statistics-period";

// The periods the statistics are grouped in, named by their first day ("YYYY-MM-DD") as
// PostgreSQL's date_trunc names them: a day, the week from its Monday, the month from its 1st.

/** The first day of the bucket holding `isoDay`. */
export function bucketStart(isoDay: string, granularity: Granularity): string {
  if (granularity === "day") return isoDay;
  if (granularity === "month") return `${isoDay.slice(0, 7)}-01`;
  const daysSinceMonday = (new Date(`${isoDay}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(isoDay, -daysSinceMonday);
}

function nextBucket(start: string, granularity: Granularity): string {
  if (granularity === "day") return addDays(start, 1);
  if (granularity === "week") return addDays(start, 7);
  const [year, month] = start.split("-").map(Number);
  return new Date(Date.UTC(year!, month!, 1)).toISOString().slice(0, 10);
}

/** Every bucket of the period, in order, including those without orders. */
export function periodBuckets({ from, to, granularity }: StatisticsPeriod): string[] {
  const buckets: string[] = [];
  for (let start = bucketStart(from, granularity); start <= to; start = nextBucket(start, granularity)) {
    buckets.push(start);
  }
  return buckets;
}

const MONTHS_FR = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];

/** "21/03/2026", "Semaine du 16/03/2026" or "mars 2026". */
export function bucketLabel(start: string, granularity: Granularity): string {
  if (granularity === "day") return formatDayFr(start);
  if (granularity === "week") return `Semaine du ${formatDayFr(start)}`;
  const [year, month] = start.split("-");
  return `${MONTHS_FR[Number(month) - 1]} ${year}`;
}
