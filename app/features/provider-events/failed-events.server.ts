import { count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { failedProviderEvents, providerEvents } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import type { StripeEventRef } from "./stripe-webhook.server";

// Provider events whose handling failed (ADR 026): kept, with their error, until a delivery or an
// admin's retry processes them.

/** How many failed events the back office lists at once; there are few, or something is down. */
export const FAILED_EVENTS_SHOWN = 100;

export type FailedEventRow = typeof failedProviderEvents.$inferSelect;

/**
 * Keeps a failed event, or counts one more failure of a kept one. An event processed meanwhile (a
 * concurrent delivery that succeeded) is not kept.
 */
export async function rememberFailedEvent(db: Database, event: StripeEventRef, error: string) {
  await db.execute(sql`
    insert into ${failedProviderEvents} (id, provider, type, object_ref, last_error)
    select ${event.id}, 'stripe', ${event.type}, ${event.objectRef}, ${error.slice(0, 1000)}
    where not exists (select 1 from ${providerEvents} where ${providerEvents.id} = ${event.id})
    on conflict (id) do update set
      attempts = ${failedProviderEvents.attempts} + 1,
      last_error = excluded.last_error,
      last_failed_at = now()`);
}

export async function forgetFailedEvent(db: Database, id: string) {
  await db.delete(failedProviderEvents).where(eq(failedProviderEvents.id, id));
}

export async function failedEvent(db: Database, id: string): Promise<StripeEventRef | undefined> {
  const [event] = await db
    .select({ id: failedProviderEvents.id, type: failedProviderEvents.type, objectRef: failedProviderEvents.objectRef })
    .from(failedProviderEvents)
    .where(eq(failedProviderEvents.id, id));
  return event;
}

export async function isProcessed(db: Database, id: string) {
  const [row] = await db.select({ id: providerEvents.id }).from(providerEvents).where(eq(providerEvents.id, id));
  return row !== undefined;
}

export async function noteRetry(db: Database, id: string, actor: Actor) {
  await db
    .update(failedProviderEvents)
    .set({ retriedAt: sql`now()`, retriedBy: actor.label })
    .where(eq(failedProviderEvents.id, id));
}

/** The failed events, latest failure first, and how many there are in all. */
export async function listFailedEvents(db: Database): Promise<{ rows: FailedEventRow[]; total: number }> {
  const rows = await db
    .select()
    .from(failedProviderEvents)
    .orderBy(desc(failedProviderEvents.lastFailedAt), desc(failedProviderEvents.id))
    .limit(FAILED_EVENTS_SHOWN);
  return { rows, total: rows.length < FAILED_EVENTS_SHOWN ? rows.length : await failedEventCount(db) };
}

export async function failedEventCount(db: Database): Promise<number> {
  const [row] = await db.select({ events: count() }).from(failedProviderEvents);
  return row?.events ?? 0;
}
