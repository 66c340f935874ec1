import { and, type AnyColumn, asc, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { CURRENCY_CODES, orderDays, revenueDays, type CurrencyCode, type OrderStatus } from "~/db/schema";
import { CHARGED_ORDER_STATUSES, PAID_ORDER_STATUSES } from "~/features/booking/order-status";
import { revenueSums, type EntryKind } from "~/features/admin/revenue.server";
import type { Revenue } from "~/features/admin/revenue";
import { periodBuckets } from "./statistics-buckets";
import { type StatisticsPeriod } from "./statistics-period";

// Sales statistics over a period: everything is added up by the database, from the daily figures
// the triggers of migration 0006 keep (`order_days`, ADR 012), never in JavaScript. Amounts in
// different currencies are never added together.

/** Orders that were never paid and are still open. */
export const UNPAID_ORDER_STATUSES = ["not_paid"] as const satisfies readonly OrderStatus[];
/** Orders that will not bring revenue any more: cancelled before or refunded after payment. */
export const WITHDRAWN_ORDER_STATUSES = ["cancelled", "refunded"] as const satisfies readonly OrderStatus[];

export const TOP_AIRPORTS = 10;

export interface OrderCounts {
  orders: number;
  /** Paid or completed: the orders counted as revenue. */
  paid: number;
  unpaid: number;
  withdrawn: number;
}

export interface BucketFigures extends OrderCounts {
  /** The bucket's first day (Amsterdam), "YYYY-MM-DD". */
  start: string;
  /** Minor units of the currency, over paid and completed orders. */
  revenue: number;
}

export interface CurrencyFigures {
  currency: CurrencyCode;
  totals: OrderCounts & { revenue: number };
  /** Every bucket of the period, in order, those without orders at zero. */
  buckets: BucketFigures[];
}

export interface AirportFigures {
  airport: string;
  orders: number;
  paid: number;
  /** Revenue (minor units) in each currency the airport sold in, in the usual currency order. */
  revenue: { currency: CurrencyCode; amount: number }[];
}

export interface SalesStatistics {
  /** Order counts over every currency (counts, unlike amounts, add up). */
  totals: OrderCounts;
  currencies: CurrencyFigures[];
  /** The airports with the most paid orders (then the most orders), best first. */
  airports: AirportFigures[];
}

const whereStatusIn = (status: AnyColumn, statuses: readonly OrderStatus[]) => inArray(status, [...statuses]);

/** The days of the period, both ends included. */
const inPeriod = (period: StatisticsPeriod) => and(gte(orderDays.day, period.from), lte(orderDays.day, period.to));

const confirmed = whereStatusIn(orderDays.status, PAID_ORDER_STATUSES);

/** The sum of a column of a group's daily figures, or of those whose rows match `condition`. */
const sumOf = (column: AnyColumn, condition?: SQL) =>
  condition ? sql`coalesce(sum(${column}) filter (where ${condition}), 0)` : sql`sum(${column})`;

/** Days whose orders were all deleted or moved to another status keep rows at zero: such groups are left out. */
const hasOrders = sql`sum(${orderDays.orders}) <> 0`;

/**
 * The period's figures per bucket and currency, per currency (bucket null), per bucket (currency
 * null) and over everything (both null); amounts are meaningless where currency is null.
 */
export interface PeriodFigures extends OrderCounts, Revenue {
  bucket: string | null;
  currency: CurrencyCode | null;
  /** Minor units of the currency, over paid and completed orders. */
  revenue: number;
  /** Free accesses (ADR 029) spent by paid and completed orders. */
  freeAccesses: number;
}

/**
 * Every figure the period's daily rows give, in one statement that reads them once: the orders'
 * (`order_days`), with the fees and refunds (`revenue_days`, ADR 031) beside their fast tracks. The
 * daily orders are first summed per bucket and currency, a plain GROUP BY that PostgreSQL hashes in
 * memory, and only those few rows, with the fees and refunds, go through the grouping sets.
 */
export async function periodFigures(db: Database, period: StatisticsPeriod): Promise<PeriodFigures[]> {
  const bucketOf = (day: AnyColumn) => sql<string>`date_trunc(${period.granularity}, ${day}::timestamp)`;
  const bucketSales = db.$with("bucket_sales").as(
    db
      .select({
        bucket: bucketOf(orderDays.day).as("bucket"),
        currency: orderDays.currency,
        orders: sumOf(orderDays.orders).as("orders"),
        paid: sumOf(orderDays.orders, confirmed).as("paid"),
        unpaid: sumOf(orderDays.orders, whereStatusIn(orderDays.status, UNPAID_ORDER_STATUSES)).as("unpaid"),
        withdrawn: sumOf(orderDays.orders, whereStatusIn(orderDays.status, WITHDRAWN_ORDER_STATUSES)).as("withdrawn"),
        revenue: sumOf(orderDays.amount, confirmed).as("revenue"),
        freeAccesses: sumOf(orderDays.freeAccesses, confirmed).as("free_accesses"),
        fastTracks: sumOf(orderDays.amount, whereStatusIn(orderDays.status, CHARGED_ORDER_STATUSES)).as("fast_tracks"),
      })
      .from(orderDays)
      .where(inPeriod(period))
      .groupBy(sql`bucket`, orderDays.currency)
      .having(hasOrders),
  );
  const none = (name: string) => sql<number>`0`.as(name);
  const entries = db.$with("entries").as(
    db
      .select({
        bucket: sql<string>`${bucketSales.bucket}`.as("bucket"),
        currency: sql<CurrencyCode>`${bucketSales.currency}`.as("currency"),
        orders: sql<number>`${bucketSales.orders}`.as("orders"),
        paid: sql<number>`${bucketSales.paid}`.as("paid"),
        unpaid: sql<number>`${bucketSales.unpaid}`.as("unpaid"),
        withdrawn: sql<number>`${bucketSales.withdrawn}`.as("withdrawn"),
        revenue: sql<number>`${bucketSales.revenue}`.as("revenue"),
        freeAccesses: sql<number>`${bucketSales.freeAccesses}`.as("free_accesses"),
        kind: sql<EntryKind>`'fast_track'`.as("kind"),
        amount: sql<number>`${bucketSales.fastTracks}`.as("amount"),
      })
      .from(bucketSales)
      .unionAll(
        db
          .select({
            bucket: bucketOf(revenueDays.day).as("bucket"),
            currency: sql<CurrencyCode>`${revenueDays.currency}`.as("currency"),
            orders: none("orders"),
            paid: none("paid"),
            unpaid: none("unpaid"),
            withdrawn: none("withdrawn"),
            revenue: none("revenue"),
            freeAccesses: none("free_accesses"),
            kind: sql<EntryKind>`${revenueDays.kind}`.as("kind"),
            amount: sql<number>`${revenueDays.amount}`.as("amount"),
          })
          .from(revenueDays)
          .where(and(gte(revenueDays.day, period.from), lte(revenueDays.day, period.to))),
      ),
  );
  const summed = (column: SQL.Aliased) => sql`sum(${column})`.mapWith(Number);
  return db
    .with(bucketSales, entries)
    .select({
      bucket: sql<string | null>`to_char(${entries.bucket}, 'YYYY-MM-DD')`,
      currency: sql<CurrencyCode | null>`${entries.currency}`,
      orders: summed(entries.orders),
      paid: summed(entries.paid),
      unpaid: summed(entries.unpaid),
      withdrawn: summed(entries.withdrawn),
      revenue: summed(entries.revenue),
      freeAccesses: summed(entries.freeAccesses),
      ...revenueSums(sql`${entries.kind}`, sql`${entries.amount}`),
    })
    .from(entries)
    .groupBy(
      sql`grouping sets ((${entries.bucket}, ${entries.currency}), (${entries.currency}), (${entries.bucket}), ())`,
    );
}

/** The period's orders per currency and bucket, and its best airports, from the statements that read them. */
export function salesStatistics(
  period: StatisticsPeriod,
  figures: PeriodFigures[],
  airports: AirportFigures[],
): SalesStatistics {
  const overall = figures.find((row) => row.currency === null && row.bucket === null);
  // Fees and refunds alone do not make a currency's sales.
  const currencies = CURRENCY_CODES.filter((code) =>
    figures.some((row) => row.currency === code && row.bucket === null && row.orders > 0),
  );
  const buckets = periodBuckets(period);
  return {
    totals: countsOf(overall),
    currencies: currencies.map((currency) => {
      const ofCurrency = figures.filter((row) => row.currency === currency);
      const totals = ofCurrency.find((row) => row.bucket === null);
      return {
        currency,
        totals: { ...countsOf(totals), revenue: totals?.revenue ?? 0 },
        buckets: buckets.map((start) => {
          const bucket = ofCurrency.find((row) => row.bucket === start);
          return { start, ...countsOf(bucket), revenue: bucket?.revenue ?? 0 };
        }),
      };
    }),
    airports,
  };
}

const countsOf = (row: OrderCounts | undefined): OrderCounts => ({
  orders: row?.orders ?? 0,
  paid: row?.paid ?? 0,
  unpaid: row?.unpaid ?? 0,
  withdrawn: row?.withdrawn ?? 0,
});

/** The best airports of the period with their revenue per currency, from the period's daily figures. */
export async function topAirports(db: Database, period: StatisticsPeriod): Promise<AirportFigures[]> {
  const airportSales = db.$with("airport_sales").as(
    db
      .select({
        airport: sql<string>`${orderDays.airport}`.as("airport"),
        currency: orderDays.currency,
        orders: sumOf(orderDays.orders).mapWith(Number).as("orders"),
        paid: sumOf(orderDays.orders, confirmed).mapWith(Number).as("paid"),
        revenue: sumOf(orderDays.amount, confirmed).mapWith(Number).as("revenue"),
      })
      .from(orderDays)
      .where(and(inPeriod(period), isNotNull(orderDays.airport)))
      .groupBy(orderDays.airport, orderDays.currency)
      .having(hasOrders),
  );
  const best = db.$with("best_airports").as(
    db
      .select({
        airport: sql<string>`${airportSales.airport}`.as("best_airport"),
        orders: sql`sum(${airportSales.orders})`.mapWith(Number).as("airport_orders"),
        paid: sql`sum(${airportSales.paid})`.mapWith(Number).as("airport_paid"),
      })
      .from(airportSales)
      .groupBy(airportSales.airport)
      .orderBy(desc(sql`airport_paid`), desc(sql`airport_orders`), asc(airportSales.airport))
      .limit(TOP_AIRPORTS),
  );
  const rows = await db
    .with(airportSales, best)
    .select({
      airport: best.airport,
      orders: best.orders,
      paid: best.paid,
      currency: airportSales.currency,
      revenue: airportSales.revenue,
    })
    .from(best)
    .innerJoin(airportSales, eq(airportSales.airport, best.airport))
    .orderBy(desc(best.paid), desc(best.orders), asc(best.airport));

  const airports: AirportFigures[] = [];
  for (const row of rows) {
    let airport = airports.at(-1);
    if (airport?.airport !== row.airport) {
      airport = { airport: row.airport, orders: row.orders, paid: row.paid, revenue: [] };
      airports.push(airport);
    }
    airport.revenue.push({ currency: row.currency, amount: row.revenue });
  }
  for (const airport of airports) {
    airport.revenue.sort((a, b) => CURRENCY_CODES.indexOf(a.currency) - CURRENCY_CODES.indexOf(b.currency));
  }
  return airports;
}
