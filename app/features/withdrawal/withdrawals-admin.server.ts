import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, withdrawals } from "~/db/schema";

/** How many of the latest withdrawals the back office's list shows. */
export const WITHDRAWAL_LIST_LIMIT = 200;

const columns = {
  id: withdrawals.id,
  name: withdrawals.name,
  contractNumber: withdrawals.contractNumber,
  email: withdrawals.email,
  outcome: withdrawals.outcome,
  orderId: withdrawals.orderId,
  membershipId: withdrawals.membershipId,
  receivedAt: withdrawals.receivedAt,
};

/** The withdrawals about one order or one membership, newest first, for its back-office page. */
export async function withdrawalsOf(db: Database, about: { orderId: string } | { membershipId: string }) {
  return db
    .select(columns)
    .from(withdrawals)
    .where(
      "orderId" in about ? eq(withdrawals.orderId, about.orderId) : eq(withdrawals.membershipId, about.membershipId),
    )
    .orderBy(desc(withdrawals.receivedAt), desc(withdrawals.id));
}

/** The latest withdrawals of every outcome, newest first, with the matched order's number. */
export async function latestWithdrawals(db: Database) {
  return db
    .select({ ...columns, orderNumber: orders.orderNumber })
    .from(withdrawals)
    .leftJoin(orders, eq(orders.id, withdrawals.orderId))
    .orderBy(desc(withdrawals.receivedAt), desc(withdrawals.id))
    .limit(WITHDRAWAL_LIST_LIMIT);
}

export type WithdrawalRow = Awaited<ReturnType<typeof withdrawalsOf>>[number];
