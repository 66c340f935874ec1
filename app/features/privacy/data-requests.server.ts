import { asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { dataRequestEvents, dataRequests, type DataRequestAction, type DataRequestKind } from "~/db/schema";
import type { SessionUser } from "~/features/auth/guards.server";
import type { DataRequestInput } from "./data-request-schema";
import { erasePersonalData, findPersonalData, personalDataCounts, type PersonalData } from "./personal-data.server";
import { isUuid } from "~/lib/uuid";

export interface DataRequest {
  id: string;
  email: string;
  kind: DataRequestKind;
  /** "YYYY-MM-DD" */
  receivedOn: string;
  completedAt: Date | null;
}

export interface DataRequestEvent {
  action: DataRequestAction;
  actorEmail: string;
  counts: Record<string, number> | null;
  createdAt: Date;
}

/** Who acted, as the request's history keeps it. */
type Actor = Pick<SessionUser, "id" | "email">;

const requestColumns = {
  id: dataRequests.id,
  email: dataRequests.email,
  kind: dataRequests.kind,
  receivedOn: dataRequests.receivedOn,
  completedAt: dataRequests.completedAt,
};

/** The action that answers each kind of request: it closes the request when done. */
const ANSWERED_BY: Record<DataRequestKind, DataRequestAction> = {
  access: "exported",
  export: "exported",
  erasure: "erased",
};

async function recordEvent(
  db: Database,
  request: DataRequest,
  action: DataRequestAction,
  actor: Actor,
  counts: Record<string, number> | null,
) {
  await db
    .insert(dataRequestEvents)
    .values({ dataRequestId: request.id, action, actorUserId: actor.id, actorEmail: actor.email, counts });
  if (ANSWERED_BY[request.kind] === action && !request.completedAt) {
    await db
      .update(dataRequests)
      .set({ completedAt: sql`now()` })
      .where(eq(dataRequests.id, request.id));
  }
}

/** Records a person's request as received on `receivedOn`; returns its id. */
export async function recordDataRequest(db: Database, input: DataRequestInput, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    const [request] = await tx.insert(dataRequests).values(input).returning(requestColumns);
    await recordEvent(tx, request!, "recorded", actor, null);
    return request!.id;
  });
}

/** Every request: the open ones first, oldest first (the most urgent on top), then the answered ones, newest first. */
export async function listDataRequests(db: Database): Promise<DataRequest[]> {
  return db
    .select(requestColumns)
    .from(dataRequests)
    .orderBy(
      sql`${dataRequests.completedAt} is not null`,
      asc(dataRequests.receivedOn),
      desc(dataRequests.completedAt),
      asc(dataRequests.createdAt),
    );
}

export async function findDataRequest(db: Database, id: string): Promise<DataRequest | null> {
  if (!isUuid(id)) return null;
  const [request] = await db.select(requestColumns).from(dataRequests).where(eq(dataRequests.id, id));
  return request ?? null;
}

export async function dataRequestHistory(db: Database, id: string): Promise<DataRequestEvent[]> {
  return db
    .select({
      action: dataRequestEvents.action,
      actorEmail: dataRequestEvents.actorEmail,
      counts: dataRequestEvents.counts,
      createdAt: dataRequestEvents.createdAt,
    })
    .from(dataRequestEvents)
    .where(eq(dataRequestEvents.dataRequestId, id))
    .orderBy(asc(dataRequestEvents.createdAt), asc(dataRequestEvents.id));
}

/** Locks the request for the action about to be recorded, so that two admins' clicks record in turn. */
async function lockedRequest(db: Database, id: string) {
  const [request] = await db.select(requestColumns).from(dataRequests).where(eq(dataRequests.id, id)).for("update");
  if (!request) throw new Error(`No data request ${id}`);
  return request;
}

/** What the site holds about the request's address, recorded in its history as exported (counts only). */
export async function exportDataRequest(db: Database, request: DataRequest, actor: Actor): Promise<PersonalData> {
  return db.transaction(async (tx) => {
    const locked = await lockedRequest(tx, request.id);
    const data = await findPersonalData(tx, locked.email);
    await recordEvent(tx, locked, "exported", actor, personalDataCounts(data));
    return data;
  });
}

/**
 * Erases what the site holds about the request's address and records it; refuses the acting admin's
 * own account. `origin` is the site's, which cancelling a membership needs.
 */
export async function eraseDataRequest(db: Database, request: DataRequest, actor: Actor, origin: string) {
  return db.transaction(async (tx) => {
    const locked = await lockedRequest(tx, request.id);
    const outcome = await erasePersonalData(tx, locked.email, {
      actor: { userId: actor.id, label: actor.email },
      origin,
    });
    if (outcome.erased) await recordEvent(tx, locked, "erased", actor, outcome.counts);
    return outcome;
  });
}
