import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { withdrawals } from "~/db/schema";

/** A withdrawal's columns as the back office shows them. */
export const withdrawalColumns = {
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
    .select(withdrawalColumns)
    .from(withdrawals)
    .where(
      "orderId" in about ? eq(withdrawals.orderId, about.orderId) : eq(withdrawals.membershipId, about.membershipId),
    )
    .orderBy(desc(withdrawals.receivedAt), desc(withdrawals.id));
}

export type WithdrawalRow = Awaited<ReturnType<typeof withdrawalsOf>>[number];
