import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberships, orders, type MembershipPlan } from "~/db/schema";
import {
  accessesLeftLine,
  allowanceMonth,
  allowanceStanding,
  freePassengers,
  monthlyFreeAccesses,
  type AllowanceStanding,
} from "./fast-track-allowance";
import { formatMemberDay } from "./membership-mails";

/** Orders that hold the accesses they spent: a cancelled or refunded one has given them back. */
const HOLDING_STATUSES = ["not_paid", "paid", "completed"] as const;

/** A member's free accesses this month, as the booking form and the account show them. */
export interface MemberAllowance {
  plan: MembershipPlan;
  standing: AllowanceStanding;
  perMonth: number;
  used: number;
  left: number;
  /** The Amsterdam month's name: "December". */
  month: string;
}

const membershipColumns = {
  id: memberships.id,
  plan: memberships.plan,
  status: memberships.status,
  currentPeriodStart: memberships.currentPeriodStart,
  currentPeriodEnd: memberships.currentPeriodEnd,
};

async function usedIn(db: Database, membershipId: string, month: { start: Date; end: Date }): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${orders.freeAccesses}), 0)::integer` })
    .from(orders)
    .where(
      and(
        eq(orders.allowanceMembershipId, membershipId),
        gte(orders.createdAt, month.start),
        lt(orders.createdAt, month.end),
        inArray(orders.status, HOLDING_STATUSES),
      ),
    );
  return row?.used ?? 0;
}

/** The membership of `email` and its accesses this month; null when the address has no membership. */
export async function memberAllowance(db: Database, email: string, now: Date): Promise<MemberAllowance | null> {
  const [membership] = await db
    .select(membershipColumns)
    .from(memberships)
    .where(eq(memberships.email, email.trim().toLowerCase()));
  if (!membership) return null;
  const month = allowanceMonth(now);
  const perMonth = monthlyFreeAccesses(membership.plan);
  const used = await usedIn(db, membership.id, month);
  const standing = allowanceStanding({ ...membership, now });
  return {
    plan: membership.plan,
    standing,
    perMonth,
    used,
    left: standing.kind === "open" ? Math.max(0, perMonth - used) : 0,
    month: month.name,
  };
}

/**
 * How many of a booking's passengers the member's accesses cover, counted with the membership
 * locked until the booking's transaction ends: two bookings at once wait for each other, so they
 * never spend more than is left. Null when the address has no membership whose accesses are open.
 */
export async function claimFreeAccesses(
  tx: Database,
  { email, passengers, now }: { email: string; passengers: { adults: number; children: number }; now: Date },
): Promise<{ membershipId: string; free: { adults: number; children: number } } | null> {
  const [membership] = await tx
    .select(membershipColumns)
    .from(memberships)
    .where(eq(memberships.email, email.trim().toLowerCase()))
    .for("update");
  if (!membership || allowanceStanding({ ...membership, now }).kind !== "open") return null;
  const left = monthlyFreeAccesses(membership.plan) - (await usedIn(tx, membership.id, allowanceMonth(now)));
  const free = freePassengers(passengers, left);
  if (free.adults + free.children === 0) return null;
  return { membershipId: membership.id, free };
}

/**
 * What the booking form and the account say of a member's accesses: how many are left this month,
 * or from when they can be used; null when the membership gives none (ended, cancelled).
 */
export function allowanceLine({ standing, left, perMonth, month }: MemberAllowance): string | null {
  switch (standing.kind) {
    case "open":
      return accessesLeftLine(left, perMonth, month);
    case "after-trial":
      return `Your ${perMonth} free fast-track accesses a month start on ${formatMemberDay(standing.from)}, when your first quarter is paid.`;
    case "past-due":
      return "Your free fast-track accesses resume once your overdue membership fee is paid.";
    case "none":
      return null;
  }
}
