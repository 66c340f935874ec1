import { desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "./client.server";
import { membershipEvents, orderEvents } from "./schema";

/** An order's status changes, newest first (see `historyOf`). */
export function orderHistory(db: Database, orderId: string) {
  return historyOf(db, orderEvents, eq(orderEvents.orderId, orderId));
}

/** A membership's status changes, newest first (see `historyOf`). */
export function membershipHistory(db: Database, membershipId: string) {
  return historyOf(db, membershipEvents, eq(membershipEvents.membershipId, membershipId));
}

/**
 * Status changes, newest first: the latest change is what an admin looks for. Events written in one
 * transaction share its timestamp; the creation, if among them, is then still the oldest.
 */
function historyOf<Events extends typeof orderEvents | typeof membershipEvents>(
  db: Database,
  events: Events,
  where: SQL,
) {
  return db
    .select({
      id: events.id,
      fromStatus: events.fromStatus,
      toStatus: events.toStatus,
      actorLabel: events.actorLabel,
      note: events.note,
      createdAt: events.createdAt,
    })
    .from(events as typeof orderEvents)
    .where(where)
    .orderBy(desc(events.createdAt), sql`${events.fromStatus} is null`);
}
