import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { eq, sql } from "drizzle-orm";
import {
  contactMessages,
  customers,
  membershipEvents,
  memberships,
  orderEvents,
  orders,
  payments,
  unsubscribeRequests,
} from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { bookingInput } from "./booking-helpers";

const SANDBOX_CARDS = { paid: "4242424242424242", declined: "4000000000000002" } as const;

interface BookingFixture {
  email?: string;
  firstName?: string;
  lastName?: string;
  userId?: string | null;
  /** Pays the order by card in the sandbox: successfully, or with a declined attempt that leaves it unpaid. */
  pay?: keyof typeof SANDBOX_CARDS;
  /** When the booking was made; now when not given. */
  createdAt?: Date;
}

let people = 0;

/**
 * A booking made as the site makes it (the form's createBooking, then the card form's payForOrder),
 * as a guest: by default as someone new each time (an address of their own, so a
 * customer of their own); pass `email` to book again as the same person.
 */
export async function book(
  db: Database,
  {
    email = `ann.${++people}@example.com`,
    firstName = "Ann",
    lastName = "Lee",
    userId = null,
    pay,
    createdAt,
  }: BookingFixture = {},
) {
  const booking = bookingInput({ email, firstName, lastName });
  const { orderId } = await createBooking(db, { booking, currency: "EUR", userId });
  if (pay) await payByCard(db, orderId, pay);
  if (createdAt) await backdate(db, orderId, createdAt);
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

/** Pays an order by card in the sandbox, as the card form does: successfully, or declined. */
export function payByCard(db: Database, orderId: string, outcome: keyof typeof SANDBOX_CARDS) {
  const card = {
    number: SANDBOX_CARDS[outcome],
    expiryMonth: 12,
    expiryYear: new Date().getFullYear() + 2,
    cvv: "123",
  };
  return payForOrder(db, sandboxGateway, { orderId, card, origin: "https://site.test", consentedAt: new Date() });
}

/**
 * Dates an order, its customer, its history and its payments as if all happened at `when`, and the
 * membership trial its payment started as if it started then.
 */
export async function backdate(db: Database, orderId: string, when: Date) {
  const [order] = await db
    .update(orders)
    .set({ createdAt: when, updatedAt: when })
    .where(eq(orders.id, orderId))
    .returning({ customerId: orders.customerId });
  await db.update(customers).set({ createdAt: when }).where(eq(customers.id, order!.customerId));
  await db.update(orderEvents).set({ createdAt: when }).where(eq(orderEvents.orderId, orderId));
  await db.update(payments).set({ createdAt: when }).where(eq(payments.orderId, orderId));
  const moved = await db
    .update(memberships)
    .set({
      trialEndsAt: sql`${when.toISOString()}::timestamptz + (${memberships.trialEndsAt} - ${memberships.createdAt})`,
      billingAnchor: sql`${when.toISOString()}::timestamptz + (${memberships.billingAnchor} - ${memberships.createdAt})`,
      currentPeriodEnd: sql`${when.toISOString()}::timestamptz + (${memberships.currentPeriodEnd} - ${memberships.createdAt})`,
      currentPeriodStart: when,
      createdAt: when,
    })
    .where(eq(memberships.orderId, orderId))
    .returning({ id: memberships.id });
  for (const { id } of moved) {
    await db.update(membershipEvents).set({ createdAt: when }).where(eq(membershipEvents.membershipId, id));
  }
}

/** The membership that the order's payment started. */
export async function membershipOf(db: Database, orderId: string) {
  const [membership] = await db.select().from(memberships).where(eq(memberships.orderId, orderId));
  if (!membership) throw new Error(`order ${orderId} started no membership`);
  return membership;
}

/** Ends, at `when`, the membership that the order's payment started, as an immediate cancellation does. */
export async function endMembershipAt(db: Database, orderId: string, when: Date) {
  const membership = await membershipOf(db, orderId);
  const outcome = await cancelMembership(db, {
    membershipId: membership.id,
    atOnce: true,
    actor: SYSTEM_ACTOR,
    now: when,
    origin: "https://site.test",
  });
  if (outcome.kind !== "cancelled") throw new Error(`membership ${membership.id} was not live`);
}

export async function insertContactMessage(db: Database, { email = "ann@example.com", createdAt = new Date() } = {}) {
  const [message] = await db
    .insert(contactMessages)
    .values({ source: "contact", name: "Ann Lee", email, phone: "+31 20 123 4567", message: "Hello", createdAt })
    .returning();
  return message!;
}

export async function insertUnsubscribeRequest(
  db: Database,
  { email = "ann@example.com", createdAt = new Date() } = {},
) {
  const [request] = await db
    .insert(unsubscribeRequests)
    .values({ email, tokenHash: randomUUID(), expiresAt: new Date(createdAt.getTime() + 86_400_000), createdAt })
    .returning();
  return request!;
}
