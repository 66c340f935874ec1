import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { newVoucherShortCode, normaliseVoucherShortCode } from "./voucher-short-code";

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/**
 * Gives the order a short voucher code if it has none. Call it in the transaction that marks the
 * order paid. A draw that collides with another order's code is retried in a savepoint, so a
 * collision never rolls back the payment around it; the savepoint's update is the only statement.
 */
export async function giveVoucherShortCode(tx: Database, orderId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await tx.transaction((savepoint) =>
        savepoint
          .update(orders)
          .set({ voucherShortCode: newVoucherShortCode() })
          .where(and(eq(orders.id, orderId), isNull(orders.voucherShortCode))),
      );
      return;
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** The id of the order a typed short code names; null for a mistyped code, without asking the database. */
export async function findOrderIdByShortCode(db: Database, input: string): Promise<string | null> {
  const code = normaliseVoucherShortCode(input);
  if (!code) return null;
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.voucherShortCode, code));
  return row?.id ?? null;
}
