import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { newVoucherShortCode, normaliseVoucherShortCode } from "./voucher-short-code";

/** Codes drawn for one order: the first that no order has is given. */
const CANDIDATES = 5;

/**
 * The short voucher code to give an order as it becomes paid, as an expression of the statement
 * that updates it: the code it has, else the first of a few random codes that no order has. Drawn
 * in the status update itself, so giving the code costs no round trip; with 45 random bits a code
 * is taken only by another payment drawing the same one at the same moment, whose unique violation
 * fails the payment's transaction, and the payer's retry then sends the same gateway key again. When
 * every code drawn is taken, the first is written anyway, for the same failure: a paid order never
 * goes without a code.
 */
export function voucherShortCodeToGive(): SQL {
  const codes = Array.from({ length: CANDIDATES }, newVoucherShortCode);
  return sql`coalesce(${orders.voucherShortCode}, (
    select code from unnest(${sql.param(codes)}::text[]) with ordinality as drawn(code, position)
    where not exists (select from ${orders} as taken where taken.voucher_short_code = code)
    order by position limit 1), ${codes[0]})`;
}

/** The id of the order a typed short code names; null for a mistyped code, without asking the database. */
export async function findOrderIdByShortCode(db: Database, input: string): Promise<string | null> {
  const code = normaliseVoucherShortCode(input);
  if (!code) return null;
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.voucherShortCode, code));
  return row?.id ?? null;
}
