import { addDays } from "date-fns";
import type { Database } from "~/db/client.server";
import {
  membershipEvents,
  memberships,
  type CurrencyCode,
  type MembershipPlan,
  type MembershipStatus,
} from "~/db/schema";

// Memberships written straight into their tables, in any status, for the back office's figures.
// The lifecycle's own code (startTrial, runBilling, changeMembership) is for the tests of the lifecycle.

let inserted = 0;

interface MembershipRow {
  customerId: string;
  status?: MembershipStatus;
  plan?: MembershipPlan;
  currency?: CurrencyCode;
  /** Minor units per quarter. */
  price?: number;
  cancelAtPeriodEnd?: boolean;
  createdAt?: Date;
}

export async function insertMembership(
  db: Database,
  {
    customerId,
    status = "trialing",
    plan = "medium",
    currency = "EUR",
    price = 4900,
    cancelAtPeriodEnd = false,
    createdAt = new Date(),
  }: MembershipRow,
) {
  inserted += 1;
  const trialEndsAt = addDays(createdAt, 3);
  const [membership] = await db
    .insert(memberships)
    .values({
      customerId,
      email: `member${inserted}.${Date.now()}@example.com`,
      plan,
      currency,
      price,
      status,
      trialEndsAt,
      currentPeriodStart: createdAt,
      currentPeriodEnd: trialEndsAt,
      cancelAtPeriodEnd,
      paymentMethodRef: `pm_sandbox_pays_00000000-0000-4000-8000-${String(inserted).padStart(12, "0")}`,
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
  }: { membershipId: string; from: MembershipStatus | null; to: MembershipStatus; at: Date },
) {
  await db
    .insert(membershipEvents)
    .values({ membershipId, fromStatus: from, toStatus: to, actorLabel: "system", createdAt: at });
}
