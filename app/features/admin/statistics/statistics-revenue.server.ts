import { and, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderDays, revenueDays, type CurrencyCode } from "~/db/schema";
import { CHARGED_ORDER_STATUSES } from "~/features/booking/order-status";
import { currenciesWithRevenue, revenueOf, revenueSums, type EntryKind } from "~/features/admin/revenue.server";
import type { Revenue } from "~/features/admin/revenue";
import { periodBuckets } from "./statistics-buckets";
import type { StatisticsPeriod } from "./statistics-period";

// Fast tracks, fees, refunds and net per currency over a period (ADR 031), from the daily figures:
// a fast track on its order's day, as the rest of the statistics; a fee on the day it was paid; a
// refund on the day it was asked of the gateway.

export interface CurrencyRevenueStatistics {
  currency: CurrencyCode;
  totals: Revenue;
  /** Every bucket of the period, in order, those without money at zero. */
  buckets: (Revenue & { start: string })[];
}

/** One entry per currency with any figure in the period, in the usual currency order. */
export async function revenueStatistics(db: Database, period: StatisticsPeriod): Promise<CurrencyRevenueStatistics[]> {
  const bucketOf = (day: SQL) => sql<string>`date_trunc(${period.granularity}, ${day}::timestamp)`.as("bucket");
  const entries = db.$with("entries").as(
    db
      .select({
        bucket: bucketOf(sql`${orderDays.day}`),
        kind: sql<EntryKind>`'fast_track'`.as("kind"),
        currency: sql<CurrencyCode>`${orderDays.currency}`.as("currency"),
        amount: sql<number>`${orderDays.amount}`.as("amount"),
      })
      .from(orderDays)
      .where(
        and(
          gte(orderDays.day, period.from),
          lte(orderDays.day, period.to),
          inArray(orderDays.status, [...CHARGED_ORDER_STATUSES]),
        ),
      )
      .unionAll(
        db
          .select({
            bucket: bucketOf(sql`${revenueDays.day}`),
            kind: sql<EntryKind>`${revenueDays.kind}`.as("kind"),
            currency: sql<CurrencyCode>`${revenueDays.currency}`.as("currency"),
            amount: sql<number>`${revenueDays.amount}`.as("amount"),
          })
          .from(revenueDays)
          .where(and(gte(revenueDays.day, period.from), lte(revenueDays.day, period.to))),
      ),
  );
  const rows = await db
    .with(entries)
    .select({
      bucket: sql<string | null>`to_char(${entries.bucket}, 'YYYY-MM-DD')`,
      currency: entries.currency,
      ...revenueSums(sql`${entries.kind}`, sql`${entries.amount}`),
    })
    .from(entries)
    .groupBy(sql`grouping sets ((${entries.bucket}, ${entries.currency}), (${entries.currency}))`);
  const buckets = periodBuckets(period);
  return currenciesWithRevenue(rows).map((currency) => {
    const ofCurrency = rows.filter((row) => row.currency === currency);
    return {
      currency,
      totals: revenueOf(ofCurrency.find((row) => row.bucket === null)),
      buckets: buckets.map((start) => ({ start, ...revenueOf(ofCurrency.find((row) => row.bucket === start)) })),
    };
  });
}
