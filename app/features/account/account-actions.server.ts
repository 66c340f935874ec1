import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, dataRequests, membershipEvents, memberships, orders, type MembershipPlan } from "~/db/schema";
import type { WithdrawalScope } from "~/db/enums";
import type { SessionUser } from "~/features/auth/guards.server";
import { cancelMembershipOfAddress } from "~/features/memberships/cancellation.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { responseDeadline } from "~/features/privacy/data-request-deadline";
import type { Card, CardFormGateway, PaymentGateway, SavedPaymentMethod } from "~/features/payments/gateway";
import type { Membership } from "~/features/memberships/membership-status.server";
import { chargeFeeNow } from "~/features/memberships/billing-job.server";
import { LIVE_MEMBERSHIP_STATUSES, membershipPlanName } from "~/features/memberships/membership-status";
import { changePlan, keepPlan } from "~/features/memberships/plan-change.server";
import { PLAN_CHANGE_REFUSALS } from "~/features/memberships/plan-change";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { recordDataRequest } from "~/features/privacy/data-requests.server";
import { recordWithdrawal } from "~/features/withdrawal/withdrawal.server";
import { isUuid } from "~/lib/uuid";
import { companyDay, startOfCompanyDay } from "~/lib/company-time";
import { formatAmount } from "~/lib/currency";
import type { Toast } from "~/lib/toast";

/**
 * The signed-in member cancels their own membership, by the rules of the /unsubscribe link (the
 * end of the paid period, or one month's notice with the rest of the fee refunded). Answers what
 * the page then says.
 */
export async function cancelOwnMembership(
  db: Database,
  user: SessionUser,
  { now, origin }: { now: Date; origin: string },
): Promise<Toast> {
  // A second press (a double click, the back button) confirms what the first did, and mails nothing again.
  const [already] = await db
    .select({ accessUntil: memberships.currentPeriodEnd })
    .from(memberships)
    .where(and(eq(memberships.email, user.email.toLowerCase()), eq(memberships.cancelAtPeriodEnd, true)))
    .limit(1);
  if (already && already.accessUntil > now) {
    return {
      type: "success",
      title: "Your membership is cancelled",
      description: `You keep its benefits until ${formatMemberDay(already.accessUntil)}, and nothing more will be charged. We have e-mailed you a confirmation.`,
    };
  }
  const cancelled = await cancelMembershipOfAddress(db, { email: user.email, now, origin });
  if (!cancelled) {
    return { type: "error", title: "There is no membership to cancel", description: "It has ended already." };
  }
  const refund = cancelled.refunded
    ? ` We refund ${formatAmount(cancelled.refunded.amount, cancelled.refunded.currency)} to your card.`
    : "";
  return {
    type: "success",
    title: "Your membership is cancelled",
    description: cancelled.atOnce
      ? `It has ended today, and nothing more will be charged.${refund}`
      : `You keep its benefits until ${formatMemberDay(cancelled.accessUntil)}, and nothing more will be charged.${refund} We have e-mailed you a confirmation.`,
  };
}

/**
 * Records the signed-in person's request to erase their data, received today, for the back office
 * to carry out (/admin/data-requests). A request still open is not recorded twice.
 */
export async function requestOwnErasure(db: Database, user: SessionUser, now: Date): Promise<Toast> {
  const email = user.email.toLowerCase();
  const [open] = await db
    .select({ receivedOn: dataRequests.receivedOn })
    .from(dataRequests)
    .where(
      and(
        eq(sql`lower(${dataRequests.email})`, email),
        eq(dataRequests.kind, "erasure"),
        isNull(dataRequests.completedAt),
      ),
    );
  const receivedOn = open?.receivedOn ?? companyDay(now);
  if (!open) await recordDataRequest(db, { email, kind: "erasure", receivedOn }, user);
  return {
    type: "success",
    title: "We have your request to erase your data",
    description: `We erase it by ${formatMemberDay(startOfCompanyDay(responseDeadline(receivedOn)))} at the latest. What the law makes us keep (paid orders, invoices) is kept without your name.`,
  };
}

/**
 * The signed-in person withdraws from a booking of their address (and, when they choose, the
 * membership its payment started), by the /withdraw rules: the statement is theirs without retyping
 * who they are. The key is the booking's and the scope's, so a second press records nothing new.
 */
export async function withdrawOwnBooking(
  db: Database,
  gateway: PaymentGateway,
  user: SessionUser,
  { orderId, scope, now, origin }: { orderId: string; scope: WithdrawalScope; now: Date; origin: string },
): Promise<Toast | null> {
  const [order] = isUuid(orderId)
    ? await db
        .select({ orderNumber: orders.orderNumber, name: customers.fullName })
        .from(orders)
        .innerJoin(customers, eq(customers.id, orders.customerId))
        .where(and(eq(orders.id, orderId), eq(customers.email, user.email.toLowerCase())))
    : [];
  if (!order) return null;
  const { receivedAt } = await recordWithdrawal(db, gateway, {
    details: { fullName: order.name, contractNumber: order.orderNumber, email: user.email, scope },
    idempotencyKey: `account:${orderId}:${scope}`,
    origin,
    now,
  });
  return {
    type: "success",
    title: "We have your withdrawal",
    description: `Received on ${formatMemberDay(receivedAt)}. We have e-mailed you what it changes and what we refund.`,
  };
}

/** The membership's fees are charged to the member's new card from now on; its history says who changed it. */
export async function recordMemberCard(
  db: Database,
  membership: Membership,
  user: SessionUser,
  { ref, brand, last4 }: SavedPaymentMethod,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(memberships)
      .set({ paymentMethodRef: ref, cardBrand: brand, cardLast4: last4 })
      .where(eq(memberships.id, membership.id));
    await tx.insert(membershipEvents).values({
      membershipId: membership.id,
      fromStatus: membership.status,
      toStatus: membership.status,
      plan: membership.plan,
      actorUserId: user.id,
      actorLabel: CUSTOMER_ACTOR.label,
      note: `Carte remplacée par le membre : ${brand} •••• ${last4}`,
    });
  });
}

/** The signed-in address's membership that a card may be replaced for, or a fee paid for: one still live. */
export async function liveMembershipOf(db: Database, user: SessionUser) {
  const [membership] = await db
    .select()
    .from(memberships)
    .where(
      and(eq(memberships.email, user.email.toLowerCase()), inArray(memberships.status, [...LIVE_MEMBERSHIP_STATUSES])),
    );
  return membership ?? null;
}

export const NO_LIVE_MEMBERSHIP: Toast = {
  type: "error",
  title: "There is no membership to change",
  description: "It has ended already.",
};

/**
 * Keeps a new card for the signed-in member's next charges, checked with the bank but not charged
 * (the gateway is asked outside any transaction, under the form's key: a form sent twice keeps one
 * card). Answers what the page then says, or the bank's refusal for the form to show.
 */
export async function replaceOwnCard(
  db: Database,
  gateway: CardFormGateway,
  user: SessionUser,
  { card, idempotencyKey }: { card: Card; idempotencyKey: string },
): Promise<{ saved: Toast } | { refused: string }> {
  const membership = await liveMembershipOf(db, user);
  if (!membership || membership.providerSubscriptionRef) return { saved: NO_LIVE_MEMBERSHIP };
  const result = await gateway.saveCard({ card, idempotencyKey: `card:${membership.id}:${idempotencyKey}` });
  if (!result.paymentMethod) return { refused: result.message };
  const { ref, brand, last4 } = result.paymentMethod;
  // The same form sent again is answered with the same card: it is kept already.
  if (membership.paymentMethodRef !== ref) await recordMemberCard(db, membership, user, result.paymentMethod);
  return { saved: cardReplaced(membership, { brand, last4 }) };
}

/** What the account says once a new card is kept: a past-due member still has the open fee to pay. */
export function cardReplaced(membership: Membership, { brand, last4 }: { brand: string; last4: string }): Toast {
  return {
    type: "success",
    title: "Your card is replaced",
    description:
      membership.status === "past_due"
        ? `We charge your ${brand} ending ${last4} from now on. Pay the open fee with it below.`
        : `We charge your ${brand} ending ${last4} from now on.`,
  };
}

export const FEE_PAID: Toast = {
  type: "success",
  title: "Thank you: your fee is paid",
  description: "Your membership is active again. We have e-mailed you the receipt with its invoice number.",
};

export const NOTHING_DUE: Toast = {
  type: "success",
  title: "Nothing is due",
  description: "Your membership has no unpaid fee.",
};

/** The signed-in member pays a past-due membership's open fee at once with the card on file. */
export async function payOwnFee(
  db: Database,
  gateway: CardFormGateway,
  user: SessionUser,
  { now, origin }: { now: Date; origin: string },
): Promise<Toast> {
  const membership = await liveMembershipOf(db, user);
  if (!membership || membership.providerSubscriptionRef) return NO_LIVE_MEMBERSHIP;
  const outcome = await chargeFeeNow(db, gateway, { membershipId: membership.id, now, origin });
  switch (outcome.kind) {
    case "paid":
      return FEE_PAID;
    case "declined":
      return {
        type: "error",
        title: "Your card was not charged",
        description: `${outcome.message} Replace the card, then pay again.`,
      };
    case "unreachable":
      return {
        type: "error",
        title: "We could not reach the bank",
        description: "Nothing was charged. Please try again in a minute.",
      };
    case "busy":
      return {
        type: "error",
        title: "This fee is being charged right now",
        description: "Please look again in a minute before you pay.",
      };
    case "nothing-due":
      return NOTHING_DUE;
  }
}

/**
 * The signed-in member changes their own plan (ADR 030), as the account's offer showed it: an
 * upgrade is charged only the difference the page showed (`expectedAmount`), under the form's key.
 */
export async function changeOwnPlan(
  db: Database,
  gateway: PaymentGateway,
  user: SessionUser,
  request: { to: MembershipPlan; expectedAmount: number | null; idempotencyKey: string; now: Date; origin: string },
): Promise<Toast> {
  const membership = await liveMembershipOf(db, user);
  if (!membership) return NO_LIVE_MEMBERSHIP;
  const outcome = await changePlan(db, gateway, { ...request, membershipId: membership.id, actor: CUSTOMER_ACTOR });
  const name = membershipPlanName(request.to);
  switch (outcome.kind) {
    case "changed":
      return {
        type: "success",
        title: `Your membership is now ${name}`,
        description:
          outcome.charged > 0
            ? `We charged ${formatAmount(outcome.charged, membership.currency)} to your card for the rest of this quarter and e-mailed you the receipt.`
            : "We have e-mailed you a confirmation.",
      };
    case "scheduled":
      return {
        type: "success",
        title: `Your membership changes to ${name} on ${formatMemberDay(outcome.from)}`,
        description: `You keep ${membershipPlanName(membership.plan)} until then. We have e-mailed you a confirmation.`,
      };
    case "declined":
      return {
        type: "error",
        title: "Your card was not charged",
        description: `${outcome.message} Your plan is unchanged.`,
      };
    case "amount-changed":
      return {
        type: "error",
        title: "The price for the rest of the quarter has changed",
        description: `It is now ${formatAmount(outcome.amount, membership.currency)}. Nothing was charged: check it below and confirm again.`,
      };
    case "refused":
      return {
        type: "error",
        title: "Your plan could not be changed",
        description: PLAN_CHANGE_REFUSALS[outcome.reason],
      };
    case "not-found":
      return NO_LIVE_MEMBERSHIP;
  }
}

/** The signed-in member calls off the cheaper plan they asked for: their plan stays as it is. */
export async function keepOwnPlan(
  db: Database,
  gateway: PaymentGateway,
  user: SessionUser,
  origin: string,
): Promise<Toast> {
  const membership = await liveMembershipOf(db, user);
  if (!membership) return NO_LIVE_MEMBERSHIP;
  const outcome = await keepPlan(db, gateway, { membershipId: membership.id, actor: CUSTOMER_ACTOR, origin });
  switch (outcome.kind) {
    case "kept":
      return {
        type: "success",
        title: `You keep ${membershipPlanName(outcome.plan)}`,
        description: `The change to ${membershipPlanName(outcome.instead)} is called off. We have e-mailed you a confirmation.`,
      };
    case "nothing-scheduled":
      return {
        type: "error",
        title: "No plan change is planned",
        description: `Your plan stays ${membershipPlanName(membership.plan)}.`,
      };
    case "refused":
      return {
        type: "error",
        title: "Your plan could not be changed",
        description: PLAN_CHANGE_REFUSALS[outcome.reason],
      };
    case "not-found":
      return NO_LIVE_MEMBERSHIP;
  }
}
