// The fake Stripe for manual runs:
//   npx tsx tests/support/stripe/fake-stripe-cli.ts --port 12111 [--webhook-url http://localhost:5173/webhooks/stripe]
import { parseArgs } from "node:util";
import { STATEMENT_DESCRIPTOR } from "../../../app/features/payments/statement-descriptor";
import { startFakeStripe } from "./fake-stripe";

const { values } = parseArgs({
  options: { port: { type: "string", default: "12111" }, "webhook-url": { type: "string" } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}

// Its statement descriptor is the site's, as the going-live steps have the operator set it.
const fake = await startFakeStripe({
  port,
  webhookUrl: values["webhook-url"],
  statementDescriptor: STATEMENT_DESCRIPTOR,
});
console.log(`Fake Stripe listening on ${fake.origin}
STRIPE_API_BASE=${fake.origin}
STRIPE_JS_URL=${fake.jsUrl}
STRIPE_SECRET_KEY=${fake.secretKey}
STRIPE_PUBLISHABLE_KEY=${fake.publishableKey}
STRIPE_WEBHOOK_SECRET=${fake.webhookSecret}
Webhooks: ${values["webhook-url"] ?? "not delivered (no --webhook-url)"}
Press Ctrl+C to stop.`);

process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
