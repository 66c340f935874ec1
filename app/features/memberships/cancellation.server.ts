import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships, type CurrencyCode } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import type { PaymentGateway } from "~/features/payments/gateway";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { CUSTOMER_ACTOR, type Actor } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { siteConfig } from "../../../site.config";
import { finishRefund } from "~/features/payments/refunds.server";
import { logger } from "~/logger.server";
import { cancelWithNotice } from "./cancellation-notice.server";
import { invoiceRefunds } from "./invoice-refund.server";
import { tellProviderCancel } from "./provider-cancel.server";
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
 * charged. The member is told by e-mail until when they keep access.
 *
 * The gateway is called after the commit, never inside the transaction (ADR 004): a membership
 * Stripe bills is marked for Stripe to be told (`providerCancel`), then told; a notice's refund is
 * reserved, then made. If either fails it is logged, and the follow-up job finishes it: the
 * cancellation itself stands.
 */
export async function cancelMembership(db: Database, options: CancelOptions): Promise<CancelOutcome> {
  const decided = await db.transaction((tx) => decideCancellation(tx, options));
  if (decided.outcome.kind !== "cancelled") return decided.outcome;
  const { membershipId, gateway } = options;
  const provider = () => gateway ?? paymentGateway();
  if (decided.billedByProvider) {
    await tellProviderCancel(db, provider(), membershipId).catch((error: unknown) =>
      logger.warn({ err: error, membershipId }, "cancellation: Stripe could not be told yet"),
    );
  }
  if (decided.refundId) {
    await finishRefund(db, provider(), invoiceRefunds, decided.refundId).catch((error: unknown) =>
      logger.warn({ err: error, membershipId }, "cancellation: the notice's refund could not be made yet"),
    );
  }
  return decided.outcome;
}

interface CancelOptions {
  membershipId: string;
  atOnce?: boolean;
  actor: Actor;
  now: Date;
  origin: string;
  /** The live one unless given. */
  gateway?: PaymentGateway;
  /** The history's note when the membership ends now. */
  note?: string;
  notify?: boolean;
}

/**
 * `cancelMembership`'s work in the caller's transaction `tx`, without calling the gateway: what it
 * decided, whether the provider is to be told (`tellProviderCancel`) and the notice's refund to
 * finish (`finishRefund`), both after the commit.
 */
export async function decideCancellation(
  tx: Database,
  {
    membershipId,
    atOnce = false,
    actor,
    now,
    origin,
    note = "Résiliée avec effet immédiat",
    notify = true,
  }: CancelOptions,
): Promise<{ outcome: CancelOutcome; billedByProvider?: boolean; refundId?: string }> {
  const [membership] = await tx.select().from(memberships).where(eq(memberships.id, membershipId)).for("update");
  if (!membership) return { outcome: { kind: "not-found" } as const };
  if (!isLiveMembership(membership.status)) return { outcome: { kind: "not-live" } as const };
  // An open fee ends the membership now, even one a billing run is charging this minute: that run
  // then finds the fee void and refunds whatever the gateway took (billing-job.server.ts).
  const [unpaid] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.membershipId, membershipId), eq(invoices.status, "open")))
    .limit(1);
  const endsNow = atOnce || unpaid !== undefined;
  const neverCharged = membership.status === "trialing";
  const notice = endsNow ? undefined : await cancelWithNotice(tx, membership, { actor, now });
  const billedByProvider = membership.providerSubscriptionRef !== null;
  let accessUntil = notice?.endsAt ?? membership.currentPeriodEnd;
  if (endsNow) {
    accessUntil = now;
    await changeMembership(tx, {
      membershipId,
      to: "cancelled",
      actor,
      note,
      changes: { endedAt: now, ...(billedByProvider && { providerCancel: "now" }) },
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
      changes: { cancelAtPeriodEnd: true, ...(billedByProvider && { providerCancel: "period-end" }) },
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
  const outcome: CancelOutcome = {
    kind: "cancelled",
    accessUntil,
    atOnce: endsNow,
    ...(notice?.refunded && { refunded: { amount: notice.refunded, currency: membership.currency } }),
  };
  return { outcome, billedByProvider, refundId: notice?.refundId };
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
