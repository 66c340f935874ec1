import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, invoices, memberships, orders, type CurrencyCode } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import type { HostedCardGateway, ProviderSubscriptionState } from "~/features/payments/gateway";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { isUuid } from "~/lib/uuid";
import { AUTHENTICATION_REQUIRED, mailBasics, recordFeeDeclined, recordFeesPaid } from "./fee-outcomes.server";
import { membershipEndedMail } from "./membership-mails";
import { changeMembership, type Membership } from "./membership-status.server";
import { isLiveMembership } from "./membership-status";
import { scheduledPlanNote } from "./plan-change";
import { planFee } from "./trial-offer";

/** Run in the transaction of the effect: false when the event was acted on before. */
export type Claim = (tx: Database) => Promise<boolean>;

export type Followed = "followed" | "duplicate" | "not-ours" | "nothing-to-do" | "stray-cancelled";

interface FollowContext {
  claim: Claim;
  now: Date;
  origin: string;
}

async function lockMembershipBilledBy(tx: Database, subscriptionRef: string): Promise<Membership | undefined> {
  const [membership] = await tx
    .select()
    .from(memberships)
    .where(eq(memberships.providerSubscriptionRef, subscriptionRef))
    .for("update");
  return membership;
}

/**
 * Our membership follows its provider-billed subscription (ADR 018): a cancellation for the period's
 * end, and its end. The subscription is read from the provider again, so an event that arrives late
 * or out of order changes nothing the newer state does not say. Its period is not followed here:
 * Stripe starts the next period when it bills it, paid or not, and ours starts once its fee is paid
 * (`followInvoice`).
 */
export async function followSubscription(
  db: Database,
  gateway: HostedCardGateway,
  subscriptionRef: string,
  { claim, now, origin }: FollowContext,
): Promise<Followed> {
  const subscription = await gateway.readSubscription(subscriptionRef);
  const followed = await db.transaction(async (tx): Promise<Followed | "stray"> => {
    const membership = await lockMembershipBilledBy(tx, subscriptionRef);
    if (!membership) return (await isStray(tx, subscription)) ? "stray" : "not-ours";
    if (!(await claim(tx))) return "duplicate";
    if (!isLiveMembership(membership.status)) return "nothing-to-do";
    if (subscription.status === "canceled") {
      await endMembership(tx, membership, { now, origin });
      return "followed";
    }
    // A cancellation of ours that Stripe has not been told yet: its snapshot would undo it.
    if (membership.providerCancel || membership.cancelAtPeriodEnd === subscription.cancelAtPeriodEnd) {
      return "nothing-to-do";
    }
    await changeMembership(tx, {
      membershipId: membership.id,
      to: membership.status,
      actor: SYSTEM_ACTOR,
      note: subscription.cancelAtPeriodEnd
        ? `Résiliation demandée : fin le ${formatDateTimeFr(subscription.cancelAt ?? subscription.currentPeriodEnd)}`
        : "Résiliation retirée dans Stripe",
      changes: { cancelAtPeriodEnd: subscription.cancelAtPeriodEnd },
    });
    return "followed";
  });
  if (followed !== "stray") return followed;
  await gateway.cancelSubscription(subscriptionRef);
  return "stray-cancelled";
}

/**
 * A subscription started for an address that has another membership: two first payments (or
 * membership checkouts) of one address raced, the other won, and cancelling this one right after
 * failed. It must not bill. (While the winner's own membership is being written, its address has none yet.)
 */
async function isStray(tx: Database, subscription: ProviderSubscriptionState) {
  if (subscription.status === "canceled") return false;
  const other = subscription.orderId
    ? await membershipOfOrderAddress(tx, subscription.orderId)
    : subscription.email
      ? await membershipOfAddress(tx, subscription.email)
      : undefined;
  return other !== undefined && other.ref !== subscription.ref;
}

async function membershipOfOrderAddress(tx: Database, orderId: string) {
  if (!isUuid(orderId)) return undefined;
  const [other] = await tx
    .select({ ref: memberships.providerSubscriptionRef })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .innerJoin(memberships, eq(memberships.email, sql`lower(${customers.email})`))
    .where(eq(orders.id, orderId));
  return other;
}

async function membershipOfAddress(tx: Database, email: string) {
  const [other] = await tx
    .select({ ref: memberships.providerSubscriptionRef })
    .from(memberships)
    .where(eq(memberships.email, email.toLowerCase()));
  return other;
}

/**
 * The provider ended the subscription: at the end of a cancelled period (cancelled), or because the
 * fee stayed unpaid through its retries (ended, and the member is told).
 */
async function endMembership(tx: Database, membership: Membership, { now, origin }: Omit<FollowContext, "claim">) {
  const unpaid = membership.status === "past_due";
  await changeMembership(tx, {
    membershipId: membership.id,
    to: unpaid ? "ended" : "cancelled",
    actor: SYSTEM_ACTOR,
    note: unpaid ? "Cotisation impayée : abonnement Stripe terminé" : "Abonnement Stripe terminé",
    changes: { endedAt: now },
  });
  const [open] = await tx
    .update(invoices)
    .set({ status: unpaid ? "uncollectible" : "void", nextAttemptAt: null })
    .where(and(eq(invoices.membershipId, membership.id), eq(invoices.status, "open")))
    .returning({ amount: invoices.amount });
  if (unpaid && membership.email) {
    await enqueueMail(
      tx,
      await membershipEndedMail({
        ...mailBasics(membership, origin),
        amount: open?.amount ?? membership.price,
        endedOn: now,
      }),
    );
  }
}

/** The plan a membership moves to when its next quarter starts (ADR 030), made its plan: the membership as it then is. */
async function startScheduledPlan(tx: Database, membership: Membership): Promise<Membership> {
  const to = membership.scheduledPlan;
  if (!to) return membership;
  const changes = { plan: to, price: planFee(to), scheduledPlan: null };
  await changeMembership(tx, {
    membershipId: membership.id,
    to: membership.status,
    actor: SYSTEM_ACTOR,
    note: scheduledPlanNote(membership.plan, to),
    changes,
  });
  return { ...membership, ...changes };
}

/** Our invoice's key for one of the provider's: one row of ours per invoice of theirs. */
export const providerInvoiceKey = (gatewayName: string, invoiceRef: string) => `${gatewayName}:${invoiceRef}`;

/** The provider's invoice an invoice of ours follows, from its key; undefined for one our billing job charges. */
export function providerInvoiceRef(gatewayName: string, idempotencyKey: string) {
  const prefix = providerInvoiceKey(gatewayName, "");
  return idempotencyKey.startsWith(prefix) ? idempotencyKey.slice(prefix.length) : undefined;
}

/**
 * Our invoices follow the provider's: a quarter's fee paid (receipt, membership active for the new
 * period) or declined (payment reminder, past due; the provider retries). Each provider invoice is
 * one row of ours, keyed by its reference; the trial's invoice of nothing is not one.
 */
export async function followInvoice(
  db: Database,
  gateway: HostedCardGateway,
  invoiceRef: string,
  { claim, now, origin }: FollowContext,
): Promise<Followed> {
  const invoice = await gateway.readInvoice(invoiceRef);
  // A plan change's difference is recorded by the change (plan-change.server.ts), paid or not.
  if (!invoice.subscriptionRef || invoice.amountDue === 0 || invoice.forPlanChange) return "nothing-to-do";
  const subscriptionRef = invoice.subscriptionRef;
  // A paid fee opens the next period, which only the subscription says.
  const subscription = invoice.status === "paid" ? await gateway.readSubscription(subscriptionRef) : undefined;
  // The card that paid, for the receipt: the member may have paid with another than the one on file.
  const card =
    invoice.status === "paid" && invoice.paymentRef ? (await gateway.readPayment(invoice.paymentRef)).card : undefined;
  return db.transaction(async (tx) => {
    const membership = await lockMembershipBilledBy(tx, subscriptionRef);
    if (!membership) return "not-ours";
    if (!(await claim(tx))) return "duplicate";
    const idempotencyKey = providerInvoiceKey(gateway.name, invoice.ref);
    await tx
      .insert(invoices)
      .values({
        membershipId: membership.id,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        amount: invoice.amountDue,
        currency: invoice.currency as CurrencyCode,
        idempotencyKey,
      })
      .onConflictDoNothing();
    const [ours] = await tx.select().from(invoices).where(eq(invoices.idempotencyKey, idempotencyKey)).for("update");
    if (!ours || ours.status !== "open") return "nothing-to-do";
    if (invoice.status === "paid") {
      const period =
        subscription && subscription.currentPeriodEnd > membership.currentPeriodEnd
          ? { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd }
          : undefined;
      // A move to a cheaper plan asked for last quarter: Stripe billed its price, and its quarter starts now.
      const billed = period ? await startScheduledPlan(tx, membership) : membership;
      await recordFeesPaid(
        tx,
        [
          {
            membership: billed,
            invoice: ours,
            attempts: invoice.attempts,
            chargeRef: invoice.paymentRef ?? invoice.ref,
            paidAt: now,
            note: `${gateway.name} ${invoice.ref}`,
            card,
            period,
          },
        ],
        origin,
      );
      return "followed";
    }
    if (invoice.status === "open" && invoice.attempts > 0 && isLiveMembership(membership.status)) {
      // The provider retries on its own schedule (a payment awaiting its card holder, not at all): our
      // billing job never charges this invoice.
      await recordFeeDeclined(tx, {
        membership,
        invoice: ours,
        attempts: invoice.attempts,
        outcome: invoice.awaitsAuthentication ? AUTHENTICATION_REQUIRED : "declined",
        now,
        nextAttempt: () => null,
        origin,
      });
      return "followed";
    }
    if (invoice.status === "void" || invoice.status === "uncollectible") {
      await tx.update(invoices).set({ status: invoice.status }).where(eq(invoices.id, ours.id));
      return "followed";
    }
    return "nothing-to-do";
  });
}
