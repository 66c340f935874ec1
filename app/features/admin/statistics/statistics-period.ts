import { z } from "~/lib/zod";

// The sales statistics' period, as the GET form sends it. Shared by the form in the browser and the
// loader. Days are calendar days ("YYYY-MM-DD") in Amsterdam, as the database groups them.

export const GRANULARITIES = ["day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const GRANULARITY_LABELS: Record<Granularity, string> = { day: "Jour", week: "Semaine", month: "Mois" };
export const GROUPED_BY: Record<Granularity, string> = { day: "par jour", week: "par semaine", month: "par mois" };

export const DEFAULT_PERIOD_DAYS = 30;
/** A period stays small enough to answer quickly and to draw: at most 366 days, 105 weeks or 25 months. */
export const MAX_PERIOD_DAYS = { day: 366, week: 731, month: 731 } as const satisfies Record<Granularity, number>;

const DAY_MS = 24 * 3600_000;

/** "YYYY-MM-DD" of the day `days` after `isoDay` (calendar arithmetic, done in UTC to avoid DST). */
export function addDays(isoDay: string, days: number): string {
  return new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The number of days from `from` to `to`, both counted. */
export function periodLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export interface StatisticsPeriod {
  from: string;
  to: string;
  granularity: Granularity;
}

/** The last 30 days, day by day, up to `today` included. */
export function defaultPeriod(today: string): StatisticsPeriod {
  return { from: addDays(today, 1 - DEFAULT_PERIOD_DAYS), to: today, granularity: "day" };
}

const day = (error: string) => z.iso.date({ error }).refine((value) => value >= "2000-01-01", error);

/** The form's schema; a field left empty takes its default (the last 30 days, by day, up to `today`). */
export const statisticsPeriodSchema = (today: string) => {
  const fallback = defaultPeriod(today);
  return z
    .object({
      from: day("Indiquez une date de début valide (AAAA-MM-JJ)").default(fallback.from),
      to: day("Indiquez une date de fin valide (AAAA-MM-JJ)").default(fallback.to),
      granularity: z.enum(GRANULARITIES, { error: "Choisissez jour, semaine ou mois" }).default(fallback.granularity),
    })
    .superRefine(({ from, to, granularity }, context) => {
      if (from > to) {
        context.addIssue({ code: "custom", path: ["to"], message: "La date de fin doit suivre la date de début" });
      } else if (periodLength(from, to) > MAX_PERIOD_DAYS[granularity]) {
        context.addIssue({ code: "custom", path: [], message: periodTooLongMessage(granularity) });
      }
    });
};

function periodTooLongMessage(granularity: Granularity): string {
  return granularity === "day"
    ? "Par jour, la période ne peut pas dépasser un an : choisissez une période plus courte, ou un regroupement par semaine ou par mois"
    : "La période ne peut pas dépasser deux ans";
}
