import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipEvents, memberships } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { StatusTransitionError } from "~/lib/status-transition";
import { canChangeMembership, type MembershipStatus } from "./membership-status";

export type Membership = typeof memberships.$inferSelect;

/** The columns a change may set besides the status. */
export type MembershipChanges = Partial<
  Pick<
    Membership,
    "currentPeriodStart" | "currentPeriodEnd" | "cancelAtPeriodEnd" | "graceEndsAt" | "endedAt" | "trialReminderSentAt"
  >
>;

export class MembershipTransitionError extends StatusTransitionError<MembershipStatus> {
  override name = "MembershipTransitionError";
}

export class MembershipNotFoundError extends Error {
  override name = "MembershipNotFoundError";
}

/**
 * The one way a membership changes status: the row is locked, the transition checked against the
 * state machine (membership-status.ts), the status and `changes` written and the change recorded in
 * membership_events, all or nothing. Pass a transaction to make it part of a larger one.
 */
export async function changeMembership(
  db: Database,
  {
    membershipId,
    to,
    actor,
    note,
    changes = {},
  }: { membershipId: string; to: MembershipStatus; actor: Actor; note?: string; changes?: MembershipChanges },
): Promise<{ from: MembershipStatus; membership: Membership }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: memberships.status })
      .from(memberships)
      .where(eq(memberships.id, membershipId))
      .for("update");
    if (!current) throw new MembershipNotFoundError(`No membership ${membershipId}`);
    if (!canChangeMembership(current.status, to))
      throw new MembershipTransitionError("A membership", current.status, to);
    const [membership] = await tx
      .update(memberships)
      .set({ ...changes, status: to })
      .where(eq(memberships.id, membershipId))
      .returning();
    await tx.insert(membershipEvents).values({
      membershipId,
      fromStatus: current.status,
      toStatus: to,
      actorUserId: actor.userId,
      actorLabel: actor.label,
      note,
    });
    return { from: current.status, membership: membership! };
  });
}
