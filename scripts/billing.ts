// Bills the memberships now (ADR 016), as the server does every BILLING_INTERVAL_MINUTES:
// `npm run billing`, or `npm run billing -- --at 2027-03-01T09:00:00Z` to bill as of another instant
// (a rehearsal on a copy of the data). Uses the database the server uses; the embedded one only
// while the server is stopped. Charges go through the sandbox gateway.
import type { BillingCounts } from "~/features/memberships/billing-job.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { commandOrigin } from "~/lib/site-origin.server";
import { runWithDatabase } from "./database-cli";

const LABELS: Record<keyof BillingCounts, string> = {
  trialReminders: "first-charge reminders sent",
  invoicesCreated: "quarterly invoices created",
  charged: "fees charged",
  declined: "fees declined (reminder sent or retry scheduled)",
  cancelledAtPeriodEnd: "memberships ended at the end of a cancelled period",
  endedUnpaid: "memberships ended unpaid after the reminder",
  gatewayErrors: "charges the gateway did not answer (tried again next run)",
  planChangesFinished: "plan changes finished after their request died",
};

const args = process.argv.slice(2);
const at = args[0] === "--at" && args.length === 2 ? new Date(args[1]!) : args.length === 0 ? new Date() : undefined;
if (!at || Number.isNaN(at.getTime())) {
  console.error("Usage: npm run billing   or   npm run billing -- --at 2027-03-01T09:00:00Z");
  process.exitCode = 1;
} else {
  await runWithDatabase(async (db) => {
    const outcome = await runBilling(db, sandboxGateway, { now: at, origin: commandOrigin() });
    if (!outcome.ran) {
      console.error("Another billing run is under way (on another instance): stopped. Try again in a minute.");
    }
    console.log(`Billing as of ${at.toISOString()}:`);
    for (const [key, label] of Object.entries(LABELS)) {
      console.log(`  ${label}: ${outcome.counts[key as keyof BillingCounts]}`);
    }
    return outcome.ran ? 0 : 1;
  }, "The billing run failed:");
}
