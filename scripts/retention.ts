// Applies the retention periods now (ADR 008), as the server does every hour:
// `npm run retention`, or `npm run retention -- --dry-run` to count what would go and change nothing.
// Uses the database the server uses; the embedded one only while the server is stopped.
import type { RetentionCounts } from "~/features/privacy/retention-job.server";
import { runRetention } from "~/features/privacy/retention-job.server";
import { RETENTION } from "~/features/privacy/retention";
import { formatPeriod } from "~/lib/format-period";
import { runWithDatabase } from "./database-cli";

const LABELS: Record<keyof RetentionCounts, string> = {
  unpaidOrders: `unpaid orders older than ${formatPeriod(RETENTION.unpaidOrderHours, "hour")}`,
  orderEvents: "their order history entries",
  paymentAttempts: "their declined payment attempts",
  customersDeleted: "customers deleted (no order left)",
  customersAnonymised: `customers anonymised (last order over ${formatPeriod(RETENTION.customerDataYears, "year")} ago)`,
  contactMessages: `contact messages older than ${formatPeriod(RETENTION.contactMessageYears, "year")}`,
  unsubscribeRequests: `unsubscribe requests older than ${formatPeriod(RETENTION.unsubscribeRequestYears, "year")}`,
  withdrawals: `withdrawal statements older than ${formatPeriod(RETENTION.customerDataYears, "year")}`,
  rateLimitCounters: `rate-limit counters idle for ${formatPeriod(RETENTION.rateLimitCounterHours, "hour")}`,
};

const args = process.argv.slice(2);
if (args.some((arg) => arg !== "--dry-run")) {
  console.error("Usage: npm run retention   or   npm run retention -- --dry-run");
  process.exitCode = 1;
} else {
  const dryRun = args.includes("--dry-run");
  await runWithDatabase(async (db) => {
    const outcome = await runRetention(db, { now: new Date(), dryRun });
    if (!outcome.ran) {
      console.error("Another retention run is under way (on another instance): nothing done. Try again in a minute.");
      return 1;
    }
    console.log(dryRun ? "Dry run, nothing was changed. A run now would remove:" : "Removed:");
    for (const [key, label] of Object.entries(LABELS)) {
      console.log(`  ${label}: ${outcome.counts[key as keyof RetentionCounts]}`);
    }
    return 0;
  }, "The retention run failed:");
}
