// Creates the memberships' products and quarterly prices in Stripe (ADR 018), once: run again, it
// finds them and changes nothing. Then checks that Stripe's statement descriptor is the one the
// pages announce. `npm run stripe:setup` with STRIPE_SECRET_KEY (and the other Stripe variables)
// set as the server has them.
import { env } from "~/env.server";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { setUpStripeCatalogue, statementDescriptorAtStripe } from "~/features/payments/stripe/stripe-setup.server";
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
    const { announced, atStripe } = await statementDescriptorAtStripe(stripe);
    if (atStripe === announced) {
      console.log(`  statement descriptor: ${announced} (as the payment pages and the terms say)`);
      console.log("Stripe is ready for memberships.");
    } else {
      console.error(
        `The payment pages and the terms say charges appear as ${announced} on bank statements, but Stripe's ` +
          `statement descriptor is ${atStripe ?? "not set"}: set it to ${announced} in Stripe's dashboard ` +
          "(Settings, Business, Public details), then run this again.",
      );
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(`Stripe setup failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
