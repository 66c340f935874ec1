import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { contactMessages, unsubscribeRequests } from "~/db/schema";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";
import type { MessageKind, MessageStatus, MessageStatusChange, StatusFilter } from "./message-status";

export const MESSAGES_PAGE_SIZE = 25;

export interface ContactMessageRow {
  id: string;
  source: string;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  status: MessageStatus;
  createdAt: Date;
}

export interface UnsubscribeRequestRow {
  id: string;
  email: string;
  /** When the person followed the link the e-mail gave them; null until then. */
  confirmedAt: Date | null;
  /** The link can no longer be confirmed. */
  expired: boolean;
  status: MessageStatus;
  createdAt: Date;
}

// Only "handled" is the back office's: the unsubscribe flow itself writes "confirmed" when the person
// follows the link (memberships/cancellation-request.server.ts), which for the back office is still new. Listed
// rather than "not handled", so that an index on (status, created_at, id) serves both filters.
const HANDLED = "handled";
const NOT_HANDLED = ["new", "confirmed"];

type StatusColumn = typeof contactMessages.status | typeof unsubscribeRequests.status;

function statusIs(column: StatusColumn, filter: StatusFilter) {
  if (filter === "all") return undefined;
  return filter === "handled" ? eq(column, HANDLED) : inArray(column, NOT_HANDLED);
}

const statusOf = (column: StatusColumn) =>
  sql<MessageStatus>`case when ${column} = ${HANDLED} then 'handled' else 'new' end`;

interface ListOptions {
  status: StatusFilter;
  position: PagePosition;
  pageSize?: number;
}

/** One page of contact messages, newest first. */
export async function listContactMessages(
  db: Database,
  { status, position, pageSize = MESSAGES_PAGE_SIZE }: ListOptions,
): Promise<KeysetPage<ContactMessageRow>> {
  const paging = keysetPaging(contactMessages, position, pageSize);
  const fetched = await db
    .select({
      id: contactMessages.id,
      source: contactMessages.source,
      name: contactMessages.name,
      email: contactMessages.email,
      phone: contactMessages.phone,
      message: contactMessages.message,
      status: statusOf(contactMessages.status),
      createdAt: contactMessages.createdAt,
      cursor: paging.cursor,
    })
    .from(contactMessages)
    .where(and(statusIs(contactMessages.status, status), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}

/** One page of unsubscribe requests, newest first. */
export async function listUnsubscribeRequests(
  db: Database,
  { status, position, pageSize = MESSAGES_PAGE_SIZE }: ListOptions,
): Promise<KeysetPage<UnsubscribeRequestRow>> {
  const paging = keysetPaging(unsubscribeRequests, position, pageSize);
  const fetched = await db
    .select({
      id: unsubscribeRequests.id,
      email: unsubscribeRequests.email,
      confirmedAt: unsubscribeRequests.confirmedAt,
      expired: sql<boolean>`${unsubscribeRequests.confirmedAt} is null and ${unsubscribeRequests.expiresAt} <= now()`,
      status: statusOf(unsubscribeRequests.status),
      createdAt: unsubscribeRequests.createdAt,
      cursor: paging.cursor,
    })
    .from(unsubscribeRequests)
    .where(and(statusIs(unsubscribeRequests.status, status), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}

/** How many of each kind are still new. */
export async function newMessageCounts(db: Database): Promise<Record<MessageKind, number>> {
  const [contact] = await db
    .select({ count: count() })
    .from(contactMessages)
    .where(statusIs(contactMessages.status, "new"));
  const [unsubscribe] = await db
    .select({ count: count() })
    .from(unsubscribeRequests)
    .where(statusIs(unsubscribeRequests.status, "new"));
  return { contact: contact?.count ?? 0, unsubscribe: unsubscribe?.count ?? 0 };
}

/** Marks a message or request handled, or back to new. False when there is none with this id. */
export async function changeMessageStatus(db: Database, { kind, id, status }: MessageStatusChange): Promise<boolean> {
  if (kind === "contact") {
    const changed = await db
      .update(contactMessages)
      .set({ status: status === "handled" ? HANDLED : "new" })
      .where(eq(contactMessages.id, id))
      .returning({ id: contactMessages.id });
    return changed.length > 0;
  }
  const changed = await db
    .update(unsubscribeRequests)
    .set({
      // Back to new, a confirmed request says so again, as the unsubscribe flow left it.
      status:
        status === "handled"
          ? HANDLED
          : sql`case when ${unsubscribeRequests.confirmedAt} is null then 'new' else 'confirmed' end`,
    })
    .where(eq(unsubscribeRequests.id, id))
    .returning({ id: unsubscribeRequests.id });
  return changed.length > 0;
}
