import { and, type AnyColumn, asc, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { CURRENCY_CODES, orderDays, type CurrencyCode, type OrderStatus } from "~/db/schema";
import { PAID_ORDER_STATUSES } from "~/features/booking/order-status";
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

/** The orders of a group's daily figures, or only those whose rows match `condition`. */
const ordersOf = (condition?: SQL) =>
  condition ? sql`coalesce(sum(${orderDays.orders}) filter (where ${condition}), 0)` : sql`sum(${orderDays.orders})`;

/** Minor units of paid and completed orders. A function: `mapWith` changes the SQL it is called on. */
const revenueOf = () => sql`coalesce(sum(${orderDays.amount}) filter (where ${confirmed}), 0)`;

/** Days whose orders were all deleted or moved to another status keep rows at zero: such groups are left out. */
const hasOrders = sql`sum(${orderDays.orders}) <> 0`;

export async function salesStatistics(db: Database, period: StatisticsPeriod): Promise<SalesStatistics> {
  const [rows, airports] = await Promise.all([figuresByBucketAndCurrency(db, period), topAirports(db, period)]);
  const overall = rows.find((row) => row.currency === null);
  const currencies = CURRENCY_CODES.filter((code) => rows.some((row) => row.currency === code));
  const buckets = periodBuckets(period);
  return {
    totals: countsOf(overall),
    currencies: currencies.map((currency) => {
      const ofCurrency = rows.filter((row) => row.currency === currency);
      const totals = ofCurrency.find((row) => row.bucket === null);
      return {
        currency,
        totals: { ...countsOf(totals), revenue: totals?.revenue ?? 0 },
        buckets: buckets.map((start) => {
          const figures = ofCurrency.find((row) => row.bucket === start);
          return { start, ...countsOf(figures), revenue: figures?.revenue ?? 0 };
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

/**
 * One row per bucket and currency, one per currency for the whole period (bucket null) and one over
 * everything (currency null too, revenue meaningless there). The daily figures are first summed per
 * bucket and currency, a plain GROUP BY that PostgreSQL hashes in memory, and only those few rows
 * go through the grouping sets.
 */
async function figuresByBucketAndCurrency(db: Database, period: StatisticsPeriod) {
  const bucketSales = db.$with("bucket_sales").as(
    db
      .select({
        bucket: sql<string>`date_trunc(${period.granularity}, ${orderDays.day}::timestamp)`.as("bucket"),
        currency: orderDays.currency,
        orders: ordersOf().as("orders"),
        paid: ordersOf(confirmed).as("paid"),
        unpaid: ordersOf(whereStatusIn(orderDays.status, UNPAID_ORDER_STATUSES)).as("unpaid"),
        withdrawn: ordersOf(whereStatusIn(orderDays.status, WITHDRAWN_ORDER_STATUSES)).as("withdrawn"),
        revenue: revenueOf().as("revenue"),
      })
      .from(orderDays)
      .where(inPeriod(period))
      .groupBy(sql`bucket`, orderDays.currency)
      .having(hasOrders),
  );
  const summed = (column: SQL.Aliased) => sql`sum(${column})`.mapWith(Number);
  return db
    .with(bucketSales)
    .select({
      bucket: sql<string | null>`to_char(${bucketSales.bucket}, 'YYYY-MM-DD')`,
      currency: sql<CurrencyCode | null>`${bucketSales.currency}`,
      orders: summed(bucketSales.orders),
      paid: summed(bucketSales.paid),
      unpaid: summed(bucketSales.unpaid),
      withdrawn: summed(bucketSales.withdrawn),
      revenue: summed(bucketSales.revenue),
    })
    .from(bucketSales)
    .groupBy(sql`grouping sets ((${bucketSales.bucket}, ${bucketSales.currency}), (${bucketSales.currency}), ())`);
}

/** The best airports of the period with their revenue per currency, from the period's daily figures. */
async function topAirports(db: Database, period: StatisticsPeriod): Promise<AirportFigures[]> {
  const airportSales = db.$with("airport_sales").as(
    db
      .select({
        airport: sql<string>`${orderDays.airport}`.as("airport"),
        currency: orderDays.currency,
        orders: ordersOf().mapWith(Number).as("orders"),
        paid: ordersOf(confirmed).mapWith(Number).as("paid"),
        revenue: revenueOf().mapWith(Number).as("revenue"),
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
