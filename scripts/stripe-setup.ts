// Creates the memberships' products and quarterly prices in Stripe (ADR 018), once: run again, it
// finds them and changes nothing. `npm run stripe:setup` with STRIPE_SECRET_KEY (and the other Stripe
// variables) set as the server has them.
import { env } from "~/env.server";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { setUpStripeCatalogue } from "~/features/payments/stripe/stripe-setup.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";

const config = env();
if (!config.STRIPE_SECRET_KEY) {
  console.error("STRIPE_SECRET_KEY is not set: the sandbox gateway needs no setup.");
  process.exitCode = 1;
} else {
  try {
    const stripe = createStripeClient({ secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE });
    for (const line of await setUpStripeCatalogue(stripe, MEMBERSHIP_TERMS)) {
      console.log(`  ${line.lookupKey}: ${line.priceId} (${line.created ? "created" : "already there"})`);
    }
    console.log("Stripe is ready for memberships.");
  } catch (error) {
    console.error(`Stripe setup failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
