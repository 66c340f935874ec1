import { and, count, eq, inArray, min, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { Actor } from "~/lib/actor";

export type MailRetry =
  | { kind: "queued"; to: string }
  /** The mail is not failed (any more): a second click, or another admin was first. Nothing changed. */
  | { kind: "not-failed"; to: string; status: string }
  | { kind: "not-found" };

/**
 * Puts a failed mail back in the queue as if it were new (pending, attempts from zero, due now),
 * noting who did it and when. Only a failed mail moves, so sending the form twice queues it once.
 * The caller nudges the worker once this has committed.
 */
export async function retryFailedMail(db: Database, { id, actor }: { id: string; actor: Actor }): Promise<MailRetry> {
  const [queued] = await db
    .update(outbox)
    .set({
      status: "pending",
      attempts: 0,
      nextAttemptAt: sql`now()`,
      failedAt: null,
      retriedAt: sql`now()`,
      retriedBy: actor.label,
    })
    .where(and(eq(outbox.id, id), eq(outbox.status, "failed")))
    .returning({ to: outbox.to });
  if (queued) return { kind: "queued", to: queued.to };
  const [current] = await db.select({ to: outbox.to, status: outbox.status }).from(outbox).where(eq(outbox.id, id));
  return current ? { kind: "not-failed", ...current } : { kind: "not-found" };
}

/** The outbox's queue: mails waiting (or being sent), failed, and since when the oldest has waited. */
export interface OutboxDepth {
  waiting: number;
  failed: number;
  oldestWaitingSince: Date | null;
}

export async function outboxDepth(db: Database): Promise<OutboxDepth> {
  const rows = await db
    .select({ status: outbox.status, mails: count(), oldest: min(outbox.createdAt) })
    .from(outbox)
    .where(inArray(outbox.status, ["pending", "sending", "failed"]))
    .groupBy(outbox.status);
  const waiting = rows.filter((row) => row.status !== "failed");
  const oldest = waiting.map((row) => row.oldest).filter((date): date is Date => date !== null);
  return {
    waiting: waiting.reduce((sum, row) => sum + row.mails, 0),
    failed: rows.find((row) => row.status === "failed")?.mails ?? 0,
    oldestWaitingSince: oldest.length ? new Date(Math.min(...oldest.map((date) => date.getTime()))) : null,
  };
}
