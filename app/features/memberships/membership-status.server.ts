import { asc, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipEvents, memberships, type MembershipPlan } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { StatusTransitionError } from "~/lib/status-transition";
import { canChangeMembership, type MembershipStatus } from "./membership-status";

export type Membership = typeof memberships.$inferSelect;

/** The columns a change may set besides the status. */
export type MembershipChanges = Partial<
  Pick<
    Membership,
    | "currentPeriodStart"
    | "currentPeriodEnd"
    | "cancelAtPeriodEnd"
    | "graceEndsAt"
    | "endedAt"
    | "trialReminderSentAt"
    | "providerCancel"
    | "plan"
    | "price"
    | "scheduledPlan"
  >
>;

export class MembershipTransitionError extends StatusTransitionError<MembershipStatus> {
  override name = "MembershipTransitionError";
}

export class MembershipNotFoundError extends Error {
  override name = "MembershipNotFoundError";
}

export interface MembershipChange {
  membershipId: string;
  to: MembershipStatus;
  actor: Actor;
  note?: string;
  changes?: MembershipChanges;
}

/**
 * The one way a membership changes status: the row is locked, the transition checked against the
 * state machine (membership-status.ts), the status and `changes` written and the change recorded in
 * membership_events, all or nothing. Pass a transaction to make it part of a larger one.
 */
export async function changeMembership(
  db: Database,
  change: MembershipChange,
): Promise<{ from: MembershipStatus; membership: Membership }> {
  const [changed] = await changeMemberships(db, [change]);
  return changed!;
}

/** The plan an event moved the membership from, or null when it kept its plan. */
const changedPlan = (before: MembershipPlan, after: MembershipPlan) => (before === after ? null : before);

/**
 * `changeMembership` for many memberships at once, in a few statements whatever their number (the
 * billing job's batches): all of them or none. One change per membership.
 */
export async function changeMemberships(
  db: Database,
  list: MembershipChange[],
): Promise<{ from: MembershipStatus; membership: Membership }[]> {
  if (list.length === 0) return [];
  return db.transaction(async (tx) => {
    const ids = list.map((change) => change.membershipId);
    const current = await tx
      .select({ id: memberships.id, status: memberships.status, plan: memberships.plan })
      .from(memberships)
      .where(inArray(memberships.id, ids))
      // In one order, so that two batches cannot deadlock.
      .orderBy(asc(memberships.id))
      .for("update");
    const statusOf = new Map(current.map((row) => [row.id, row.status]));
    const planOf = new Map(current.map((row) => [row.id, row.plan]));
    // The same status and changes are written with one statement.
    const groups = new Map<string, MembershipChange[]>();
    for (const change of list) {
      const from = statusOf.get(change.membershipId);
      if (!from) throw new MembershipNotFoundError(`No membership ${change.membershipId}`);
      if (!canChangeMembership(from, change.to)) throw new MembershipTransitionError("A membership", from, change.to);
      const key = JSON.stringify([change.to, change.changes ?? {}]);
      groups.set(key, [...(groups.get(key) ?? []), change]);
    }
    const written = new Map<string, Membership>();
    for (const group of groups.values()) {
      const { to, changes = {} } = group[0]!;
      const rows = await tx
        .update(memberships)
        .set({ ...changes, status: to })
        .where(
          inArray(
            memberships.id,
            group.map((change) => change.membershipId),
          ),
        )
        .returning();
      for (const row of rows) written.set(row.id, row);
    }
    await tx.insert(membershipEvents).values(
      list.map((change) => ({
        membershipId: change.membershipId,
        fromStatus: statusOf.get(change.membershipId)!,
        toStatus: change.to,
        plan: written.get(change.membershipId)!.plan,
        fromPlan: changedPlan(planOf.get(change.membershipId)!, written.get(change.membershipId)!.plan),
        actorUserId: change.actor.userId,
        actorLabel: change.actor.label,
        note: change.note,
      })),
    );
    return list.map((change) => ({
      from: statusOf.get(change.membershipId)!,
      membership: written.get(change.membershipId)!,
    }));
  });
}
