import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { setUpStripeCatalogue } from "~/features/payments/stripe/stripe-setup.server";
import { startFakeStripe, type FakeStripe, type StripeEvent } from "../../tests/support/stripe/fake-stripe";
import { stripeBrowser } from "../../tests/support/stripe/stripe-browser";
import { startServer, type BenchServer, type DatabaseKind } from "./server";

/** A card the fake Stripe charges without asking the bank for 3-D Secure. */
export const VISA = "4242424242424242";

export interface StripeSite {
  fake: FakeStripe;
  server: BenchServer;
  dispose(): Promise<void>;
}

/**
 * The production server in Stripe mode (ADR 018), against the fake Stripe the tests use, running
 * in this process on `stripePort`, with the catalogue set up as an operator would. The fake sends
 * no webhooks: a benchmark that wants them delivers them itself.
 */
export async function startStripeSite(options: {
  kind: DatabaseKind;
  port: number;
  stripePort: number;
  postgresAdminUrl?: string;
  smtpPort?: number;
}): Promise<StripeSite> {
  const fake = await startFakeStripe({ port: options.stripePort });
  try {
    await setUpStripeCatalogue(
      createStripeClient({ secretKey: fake.secretKey, apiBase: fake.origin }),
      MEMBERSHIP_TERMS,
    );
    const server = await startServer({
      kind: options.kind,
      port: options.port,
      postgresAdminUrl: options.postgresAdminUrl,
      workers: 1,
      smtpPort: options.smtpPort,
      extraEnv: {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.origin,
        STRIPE_JS_URL: fake.jsUrl,
      },
    });
    return {
      fake,
      server,
      async dispose() {
        await server.dispose();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}

/** Runs `task` on every item, at most `limit` at a time. */
export async function forEachAtMost<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * What the card holder's browser does between opening a payment on our site and telling our site it
 * is done: Stripe.js sends the card to Stripe and confirms the payment. Returns the events the fake
 * made for the payments that succeeded (payment_intent.succeeded), with the order of each.
 */
export async function confirmAtStripe(fake: FakeStripe, clientSecrets: string[]) {
  const browser = stripeBrowser(fake);
  const failures: string[] = [];
  const before = fake.events.length;
  await forEachAtMost(clientSecrets, 10, async (clientSecret) => {
    const confirmed = await browser.confirm(clientSecret, VISA);
    if (!("status" in confirmed) || confirmed.status !== "succeeded") failures.push(JSON.stringify(confirmed));
  });
  if (failures.length > 0) throw new Error(`${failures.length} payments were not confirmed at Stripe: ${failures[0]}`);
  return fake.events
    .slice(before)
    .filter((event) => event.type === "payment_intent.succeeded")
    .map((event: StripeEvent) => ({
      event,
      orderId: (event.data.object as { metadata: { orderId: string } }).metadata.orderId,
    }));
}
