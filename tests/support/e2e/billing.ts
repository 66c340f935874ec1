import { expect } from "@playwright/test";
import { billingCli, e2eDatabase } from "./database";

/**
 * Moves the membership `orderId` started three days and a minute into the past, so that its trial
 * is over, and bills it with the real CLI until its first fee is `feeStatus` (paid, or open after a
 * declined card); the server's own scheduled run may hold the lock, or do it first.
 */
export async function endTrialAndBill(orderId: string, feeStatus: "paid" | "open" = "paid") {
  const { rows } = await e2eDatabase().query<{ id: string; trial_ends_at: Date }>(
    `update memberships
        set created_at = created_at - interval '3 days 1 minute',
            trial_ends_at = trial_ends_at - interval '3 days 1 minute',
            current_period_start = current_period_start - interval '3 days 1 minute',
            current_period_end = current_period_end - interval '3 days 1 minute'
      where order_id = $1
      returning id, trial_ends_at`,
    [orderId],
  );
  const membership = rows[0]!;
  await e2eDatabase().query(
    "update membership_events set created_at = created_at - interval '3 days 1 minute' where membership_id = $1",
    [membership.id],
  );
  await expect(async () => {
    await billingCli().catch(() => undefined);
    const invoices = await e2eDatabase().query<{ status: string; attempts: number }>(
      "select status, attempts from invoices where membership_id = $1",
      [membership.id],
    );
    expect(invoices.rows).toEqual([{ status: feeStatus, attempts: 1 }]);
  }).toPass({ timeout: 60_000 });
  return { membershipId: membership.id, trialEndsAt: membership.trial_ends_at };
}
