import { Gauge, Registry } from "prom-client";

// Figures about the site's data rather than the process: read from the database when scraped (by
// the features that own them, see app/routes/metrics.ts), once per scrape by the process that
// answers it, not once per worker, and the same from every instance.

export interface SiteFigures {
  members: readonly { status: string; members: number }[];
  mail: { waiting: number; failed: number };
  failedProviderEvents: number;
}

const registry = new Registry();

const members = new Gauge({
  name: "memberships",
  help: "Memberships by status",
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
  help: "E-mails the outbox gave up on after their last attempt, until an admin sends them again",
  registers: [registry],
});

const failedEvents = new Gauge({
  name: "failed_provider_events",
  help: "Payment provider (Stripe) events whose handling failed, kept for a retry",
  registers: [registry],
});

/** The figures in the Prometheus text format. */
export function siteFiguresText(figures: SiteFigures): Promise<string> {
  members.reset();
  for (const { status, members: count } of figures.members) members.set({ status }, count);
  queuedMails.set(figures.mail.waiting);
  failedMails.set(figures.mail.failed);
  failedEvents.set(figures.failedProviderEvents);
  return registry.metrics();
}
