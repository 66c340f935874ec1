import { randomUUID } from "node:crypto";
import { addMinutes } from "date-fns";
import { desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "~/db/client.server";
import {
  invoices,
  membershipEvents,
  memberships,
  type CurrencyCode,
  type InvoiceStatus,
  type MembershipPlan,
  type MembershipStatus,
} from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { trialEndsAt } from "~/features/memberships/trial-offer";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { bookingInput } from "./booking-helpers";

// Memberships for the tests: inserted as rows (fast, any status or date), or made the way the site
// makes them (a paid first booking starts the trial) and billed by the job with a clock.

export const FIXTURE_ORIGIN = "https://site.test";

interface MembershipFixture {
  customerId: string;
  status?: MembershipStatus;
  plan?: MembershipPlan;
  currency?: CurrencyCode;
  /** Minor units per quarter; the plan's price by default. */
  price?: number;
  email?: string | null;
  createdAt?: Date;
  cancelAtPeriodEnd?: boolean;
}

/** A membership row as enrolment writes one, in its trial from `createdAt`, with the status asked for. */
export async function insertMembership(
  db: Database,
  {
    customerId,
    status = "trialing",
    plan = "medium",
    currency = "EUR",
    price = toMinorUnits(siteConfig.pricing[plan].price),
    email = null,
    createdAt = new Date(),
    cancelAtPeriodEnd = false,
  }: MembershipFixture,
) {
  const trialEnd = trialEndsAt(createdAt);
  const [membership] = await db
    .insert(memberships)
    .values({
      customerId,
      email,
      plan,
      currency,
      price,
      status,
      trialEndsAt: trialEnd,
      billingAnchor: trialEnd,
      currentPeriodStart: createdAt,
      currentPeriodEnd: trialEnd,
      cancelAtPeriodEnd,
      paymentMethodRef: `pm_sandbox_pays_${randomUUID()}`,
      cardBrand: "Visa",
      cardLast4: "4242",
      createdAt,
    })
    .returning();
  return membership!;
}

/** One entry of a membership's history, at `at`; `from` null is a trial's start. */
export async function insertMembershipEvent(
  db: Database,
  {
    membershipId,
    from,
    to,
    at,
    plan = "medium",
    fromPlan = null,
  }: {
    membershipId: string;
    from: MembershipStatus | null;
    to: MembershipStatus;
    at: Date;
    plan?: MembershipPlan;
    /** The plan before, for an entry that changed it. */
    fromPlan?: MembershipPlan | null;
  },
) {
  await db
    .insert(membershipEvents)
    .values({ membershipId, fromStatus: from, toStatus: to, plan, fromPlan, actorLabel: "system", createdAt: at });
}

/** A fee's invoice as the billing job leaves one: paid at `paidAt` by default, or in another status. */
export async function insertInvoice(
  db: Database,
  {
    membershipId,
    amount,
    currency = "EUR",
    status = "paid",
    paidAt = new Date(),
  }: { membershipId: string; amount: number; currency?: CurrencyCode; status?: InvoiceStatus; paidAt?: Date },
) {
  const charged = status === "paid" || status === "refunded";
  const [invoice] = await db
    .insert(invoices)
    .values({
      membershipId,
      periodStart: paidAt,
      periodEnd: addMinutes(paidAt, 60 * 24 * 90),
      amount,
      currency,
      status,
      attempts: 1,
      idempotencyKey: randomUUID(),
      providerRef: charged ? `ch_${randomUUID()}` : null,
      paidAt: charged ? paidAt : null,
      createdAt: paidAt,
    })
    .returning();
  return invoice!;
}

const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };

/**
 * A member whose first quarter is paid: a booking paid with the sandbox's always-paying card starts
 * the trial, then the billing job, run just after the trial's end, charges the first fee.
 */
export async function paidMember(
  db: Database,
  { firstName = "Ada", lastName = "Lovelace", email = `ada-${randomUUID().slice(0, 8)}@example.com` } = {},
) {
  const booking = bookingInput({ firstName, lastName, email });
  const { orderId } = await createBooking(db, { booking, currency: "EUR", userId: null });
  expect(
    await payForOrder(db, sandboxGateway, { orderId, card: CARD, origin: FIXTURE_ORIGIN, consentedAt: new Date() }),
  ).toMatchObject({
    kind: "paid",
  });
  const [trial] = await db.select().from(memberships).where(eq(memberships.orderId, orderId));
  const billed = await runBilling(db, sandboxGateway, {
    now: addMinutes(trial!.trialEndsAt, 1),
    origin: FIXTURE_ORIGIN,
  });
  expect(billed.counts).toMatchObject({ charged: 1 });
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, trial!.id));
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.membershipId, trial!.id))
    .orderBy(desc(invoices.periodStart));
  expect(membership!.status).toBe("active");
  expect(invoice!.status).toBe("paid");
  return { membership: membership!, invoice: invoice!, orderId };
}

/** Runs the billing job as of `now` with the sandbox, checks that it took its lock, and gives its counts. */
export async function billAt(db: Database, now: Date) {
  const outcome = await runBilling(db, sandboxGateway, { now, origin: FIXTURE_ORIGIN });
  expect(outcome.ran, "the run took its lock").toBe(true);
  return outcome.counts;
}
