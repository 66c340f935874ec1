import { inArray, sql } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import type { Database } from "~/db/client.server";
import { membershipTotals, outbox } from "~/db/schema";

// Figures about the data rather than the process: read from the database when scraped, once per
// scrape by the process that answers it (not once per worker), and the same from every instance.

const registry = new Registry();

const members = new Gauge({
  name: "memberships",
  help: "Memberships by status, from the summary table membership_totals",
  labelNames: ["status"] as const,
  registers: [registry],
});

const queuedMails = new Gauge({
  name: "outbox_queue_depth",
  help: "E-mails waiting in the outbox to be sent (pending or being sent)",
  registers: [registry],
});

const failedMails = new Gauge({
  name: "outbox_failed_mails",
  help: "E-mails the outbox gave up on after their last attempt",
  registers: [registry],
});

/** Reads the figures: a few dozen summary rows and an index range over the unsent mails. */
export async function databaseMetrics(db: Database): Promise<string> {
  const [byStatus, mails] = await Promise.all([
    db
      .select({ status: membershipTotals.status, members: sql`sum(${membershipTotals.members})`.mapWith(Number) })
      .from(membershipTotals)
      .groupBy(membershipTotals.status),
    db
      .select({ status: outbox.status, mails: sql`count(*)`.mapWith(Number) })
      .from(outbox)
      .where(inArray(outbox.status, ["pending", "sending", "failed"]))
      .groupBy(outbox.status),
  ]);
  members.reset();
  for (const { status, members: count } of byStatus) members.set({ status }, count);
  const mailsIn = (...statuses: string[]) =>
    mails.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.mails, 0);
  queuedMails.set(mailsIn("pending", "sending"));
  failedMails.set(mailsIn("failed"));
  return registry.metrics();
}
