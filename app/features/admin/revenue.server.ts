import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { CURRENCY_CODES, orderTotals, revenueTotals, type CurrencyCode, type RevenueKind } from "~/db/schema";
import { CHARGED_ORDER_STATUSES } from "~/features/booking/order-status";
import type { CurrencyRevenue, Revenue } from "./revenue";

// Fast tracks, fees, refunds and net per currency (ADR 031), summed by the database from what the
// triggers keep: the orders' summaries (`order_totals`, `order_days`) for the fast tracks, and
// `revenue_totals` / `revenue_days` (migration 0031) for the fees and refunds. Amounts of different
// currencies are never added together.

/** An entry of the union the figures are summed over: the revenue tables' kinds, and the fast tracks. */
export type EntryKind = RevenueKind | "fast_track";

const REFUND_KINDS = ["order_refund", "fee_refund"] as const satisfies readonly EntryKind[];

const kindIn = (kind: SQL, kinds: readonly EntryKind[]) =>
  sql`${kind} in (${sql.join(
    kinds.map((value) => sql`${value}`),
    sql`, `,
  )})`;

/** The four figures over entries with a `kind` and an `amount`, 0 where there are none. */
export function revenueSums(kind: SQL, amount: SQL) {
  const sumOf = (kinds: readonly EntryKind[]) =>
    sql`coalesce(sum(${amount}) filter (where ${kindIn(kind, kinds)}), 0)`.mapWith(Number);
  return {
    fastTracks: sumOf(["fast_track"]),
    fees: sumOf(["fee"]),
    refunds: sumOf(REFUND_KINDS),
    net: sql`coalesce(sum(case when ${kindIn(kind, REFUND_KINDS)} then -${amount} else ${amount} end), 0)`.mapWith(
      Number,
    ),
  };
}

export const revenueOf = (row: Revenue | undefined): Revenue => ({
  fastTracks: row?.fastTracks ?? 0,
  fees: row?.fees ?? 0,
  refunds: row?.refunds ?? 0,
  net: row?.net ?? 0,
});

/** The currencies, in the usual order, that have any of the figures. */
export function currenciesWithRevenue(
  rows: { currency: CurrencyCode | null; fastTracks: number; fees: number; refunds: number }[],
) {
  return CURRENCY_CODES.filter((currency) =>
    rows.some((row) => row.currency === currency && (row.fastTracks || row.fees || row.refunds)),
  );
}

/**
 * The dashboard's figures per currency, for everything there is: a few dozen summary rows, however
 * many orders, invoices and refunds. Currencies without any are left out.
 */
export async function revenueByCurrency(db: Database): Promise<CurrencyRevenue[]> {
  const entries = db
    .select({
      kind: sql<EntryKind>`'fast_track'`.as("kind"),
      currency: sql<CurrencyCode>`${orderTotals.currency}`.as("currency"),
      amount: sql<number>`${orderTotals.amount}`.as("amount"),
    })
    .from(orderTotals)
    .where(inArray(orderTotals.status, [...CHARGED_ORDER_STATUSES]))
    .unionAll(
      db
        .select({
          kind: sql<EntryKind>`${revenueTotals.kind}`.as("kind"),
          currency: sql<CurrencyCode>`${revenueTotals.currency}`.as("currency"),
          amount: sql<number>`${revenueTotals.amount}`.as("amount"),
        })
        .from(revenueTotals),
    )
    .as("entries");
  const rows = await db
    .select({ currency: entries.currency, ...revenueSums(sql`${entries.kind}`, sql`${entries.amount}`) })
    .from(entries)
    .groupBy(entries.currency);
  return currenciesWithRevenue(rows).map((currency) => ({
    currency,
    ...revenueOf(rows.find((row) => row.currency === currency)),
  }));
}
