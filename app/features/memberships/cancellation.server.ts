import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships, type CurrencyCode } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import type { PaymentGateway } from "~/features/payments/gateway";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { CUSTOMER_ACTOR, type Actor } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { siteConfig } from "../../../site.config";
import { cancelWithNotice } from "./cancellation-notice.server";
import { membershipCancelledMail } from "./membership-mails";
import { changeMembership } from "./membership-status.server";
import { LIVE_MEMBERSHIP_STATUSES, isLiveMembership } from "./membership-status";

/** A refund, in minor units of `currency`. */
export type MembershipRefund = { amount: number; currency: CurrencyCode };

export type CancelOutcome =
  /** Cancelled, or cancelled already: the member keeps access until `accessUntil`. */
  | {
      kind: "cancelled";
      accessUntil: Date;
      atOnce: boolean;
      /** What was refunded of the current period's fee, when one month's notice ended it early. */
      refunded?: MembershipRefund;
    }
  | { kind: "not-live" }
  | { kind: "not-found" };

/**
 * Cancels a membership. By default at the end of what is paid: a trial ends at its end, before any
 * charge; the first paid quarter runs out and is not renewed; after it, the membership ends one
 * month after the request if the quarter runs longer, and the rest of its fee is refunded
 * (cancellation-notice.server.ts). `atOnce` (an admin's choice) ends it now and
 * voids an open invoice. A membership with an open invoice (past due, or its fee not charged yet
 * because the gateway did not answer) has no paid period left, so it ends now and that fee is never
 * charged. The member is told by e-mail until when they keep access. A membership Stripe bills is
 * cancelled at Stripe first (`gateway`, the live one unless given): if Stripe refuses, nothing here
 * changes.
 */
export async function cancelMembership(
  db: Database,
  {
    membershipId,
    atOnce = false,
    actor,
    now,
    origin,
    gateway,
    note = "Résiliée avec effet immédiat",
    notify = true,
  }: {
    membershipId: string;
    atOnce?: boolean;
    actor: Actor;
    now: Date;
    origin: string;
    gateway?: PaymentGateway;
    /** The history's note when the membership ends now. */
    note?: string;
    notify?: boolean;
  },
): Promise<CancelOutcome> {
  return db.transaction(async (tx) => {
    const [membership] = await tx.select().from(memberships).where(eq(memberships.id, membershipId)).for("update");
    if (!membership) return { kind: "not-found" };
    if (!isLiveMembership(membership.status)) return { kind: "not-live" };
    // Read after the lock: a charge that held the membership is settled by now.
    const [unpaid] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.membershipId, membershipId), eq(invoices.status, "open")))
      .limit(1);
    const endsNow = atOnce || unpaid !== undefined;
    const neverCharged = membership.status === "trialing";
    const notice = endsNow
      ? undefined
      : await cancelWithNotice(tx, membership, { actor, now, gateway: () => gateway ?? paymentGateway() });
    if (membership.providerSubscriptionRef && !notice) {
      const provider = gateway ?? paymentGateway();
      if (provider.kind !== "hosted-card")
        throw new Error("This membership is billed by Stripe, which is not configured");
      if (endsNow) await provider.cancelSubscription(membership.providerSubscriptionRef);
      else if (!membership.cancelAtPeriodEnd)
        await provider.cancelSubscriptionAtPeriodEnd(membership.providerSubscriptionRef);
    }
    let accessUntil = notice?.endsAt ?? membership.currentPeriodEnd;
    if (endsNow) {
      accessUntil = now;
      await changeMembership(tx, {
        membershipId,
        to: "canceled",
        actor,
        note,
        changes: { endedAt: now },
      });
      await tx
        .update(invoices)
        .set({ status: "void", nextAttemptAt: null })
        .where(and(eq(invoices.membershipId, membershipId), eq(invoices.status, "open")));
    } else if (!notice && !membership.cancelAtPeriodEnd) {
      await changeMembership(tx, {
        membershipId,
        to: membership.status,
        actor,
        note: `Résiliation demandée : fin le ${formatDateTimeFr(membership.currentPeriodEnd)}`,
        changes: { cancelAtPeriodEnd: true },
      });
    }
    if (membership.email && notify) {
      await enqueueMail(
        tx,
        await membershipCancelledMail({
          to: membership.email,
          planName: siteConfig.pricing[membership.plan].name,
          price: membership.price,
          currency: membership.currency,
          origin,
          accessUntil,
          neverCharged,
          refunded: notice?.refunded ?? 0,
        }),
      );
    }
    return {
      kind: "cancelled",
      accessUntil,
      atOnce: endsNow,
      ...(notice?.refunded && { refunded: { amount: notice.refunded, currency: membership.currency } }),
    };
  });
}

/**
 * What the member's own cancellation did: until when they keep access, whether it ended at once,
 * and what was refunded when one month's notice ended it early.
 */
export type AddressCancellation = { accessUntil: Date; atOnce: boolean; refunded?: MembershipRefund };

/**
 * The member's own cancellation (the confirmed unsubscribe link): the live membership of `email`,
 * if there is one, is cancelled at the end of its paid period. Returns until when it runs, or null
 * without one: only the holder of the address's link may be told which.
 */
export async function cancelMembershipOfAddress(
  db: Database,
  { email, now, origin }: { email: string; now: Date; origin: string },
): Promise<AddressCancellation | null> {
  const [membership] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.email, email.toLowerCase()), inArray(memberships.status, LIVE_MEMBERSHIP_STATUSES)));
  if (!membership) return null;
  const outcome = await cancelMembership(db, { membershipId: membership.id, actor: CUSTOMER_ACTOR, now, origin });
  if (outcome.kind !== "cancelled") return null;
  const { accessUntil, atOnce, refunded } = outcome;
  return { accessUntil, atOnce, ...(refunded && { refunded }) };
}
