import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";

export const FAILED_MAILS_PAGE_SIZE = 25;

/** A mail the worker gave up on, as the back office lists it: never its body or attachments. */
export interface FailedMailRow {
  id: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  failedAt: Date | null;
  retriedAt: Date | null;
  retriedBy: string | null;
}

/** One page of the failed mails, newest first. */
export async function listFailedMails(
  db: Database,
  { position, pageSize = FAILED_MAILS_PAGE_SIZE }: { position: PagePosition; pageSize?: number },
): Promise<KeysetPage<FailedMailRow>> {
  const paging = keysetPaging(outbox, position, pageSize);
  const fetched = await db
    .select({
      id: outbox.id,
      to: outbox.to,
      subject: outbox.subject,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      failedAt: outbox.failedAt,
      retriedAt: outbox.retriedAt,
      retriedBy: outbox.retriedBy,
      cursor: paging.cursor,
    })
    .from(outbox)
    .where(and(eq(outbox.status, "failed"), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}
