import { and, asc, eq, isNotNull, lt } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { memberships } from "~/db/schema";
import type { PaymentGateway } from "~/features/payments/gateway";

/** How long a cancellation may wait for its request to tell the provider before the follow-up job does. */
export const PROVIDER_CANCEL_GRACE_MS = 5 * 60_000;

/**
 * Tells the provider that bills `membershipId` the cancellation decided here (`providerCancel`),
 * outside any transaction, and clears it unless a newer cancellation replaced it meanwhile. A
 * subscription the provider has ended already needs nothing more. Throws if the provider fails:
 * the cancellation stays to be told.
 */
export async function tellProviderCancel(db: Database, gateway: PaymentGateway, membershipId: string): Promise<void> {
  const [membership] = await db
    .select({
      cancel: memberships.providerCancel,
      subscriptionRef: memberships.providerSubscriptionRef,
      endsAt: memberships.currentPeriodEnd,
    })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  if (!membership?.cancel || !membership.subscriptionRef) return;
  if (gateway.kind !== "hosted-card") throw new Error("This membership is billed by Stripe, which is not configured");
  const { cancel, subscriptionRef } = membership;
  if ((await gateway.readSubscription(subscriptionRef)).status !== "canceled") {
    if (cancel === "now") await gateway.cancelSubscription(subscriptionRef);
    else if (cancel === "period-end") await gateway.cancelSubscriptionAtPeriodEnd(subscriptionRef);
    else await gateway.cancelSubscriptionAt(subscriptionRef, membership.endsAt);
  }
  await db
    .update(memberships)
    .set({ providerCancel: null })
    .where(and(eq(memberships.id, membershipId), eq(memberships.providerCancel, cancel)));
}

/**
 * Tells the provider the cancellations its requests could not (the provider failed, or the process
 * stopped first), older than `PROVIDER_CANCEL_GRACE_MS`. Returns how many it told.
 */
export async function tellPendingProviderCancels(
  db: Database,
  gateway: PaymentGateway,
  { now, logger }: { now: Date; logger: Pick<Logger, "warn"> },
): Promise<number> {
  const pending = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        isNotNull(memberships.providerCancel),
        lt(memberships.updatedAt, new Date(now.getTime() - PROVIDER_CANCEL_GRACE_MS)),
      ),
    )
    .orderBy(asc(memberships.updatedAt))
    .limit(100);
  let told = 0;
  for (const { id } of pending) {
    try {
      await tellProviderCancel(db, gateway, id);
      told++;
    } catch (error) {
      logger.warn({ err: error, membershipId: id }, "memberships: the provider could not be told of a cancellation");
    }
  }
  return told;
}
