import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import { runNpmScript } from "../../support/integration/npm-script";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";

let fake: FakeStripe;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // As the operator sets it in the dashboard (docs/payments-and-memberships.md, "Going live").
  fake = await startFakeStripe({ statementDescriptor: STATEMENT_DESCRIPTOR });
  env = {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_BASE: fake.origin,
  };
});

afterAll(() => fake.close());

describe("npm run stripe:setup", () => {
  it("creates a quarterly price per plan and currency once, then finds them again by lookup key", async () => {
    const first = await runNpmScript("stripe:setup", [], env);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/medium_eur_quarterly: price_\w+ \(created\)/);
    expect(first.output.match(/\(created\)/g)).toHaveLength(6);

    const again = await runNpmScript("stripe:setup", [], env);
    expect(again.code).toBe(0);
    expect(again.output.match(/\(already there\)/g)).toHaveLength(6);
    const prices = await fetch(`${fake.origin}/v1/prices?lookup_keys[]=premium_gbp_quarterly`, {
      headers: { Authorization: `Bearer ${fake.secretKey}` },
    }).then((response) => response.json() as Promise<{ data: { unit_amount: number; recurring: object }[] }>);
    expect(prices.data).toMatchObject([{ recurring: { interval: "month", interval_count: 3 } }]);
  });

  it("refuses to call Stripe ready while its statement descriptor is not the one the pages announce", async () => {
    fake.statementDescriptor = null;
    const unset = await runNpmScript("stripe:setup", [], env);
    expect(unset.code).toBe(1);
    expect(unset.output).toContain(
      `The payment pages and the terms say charges appear as ${STATEMENT_DESCRIPTOR} on bank statements, ` +
        `but Stripe's statement descriptor is not set: set it to ${STATEMENT_DESCRIPTOR} in Stripe's dashboard`,
    );
    expect(unset.output).not.toContain("Stripe is ready");

    fake.statementDescriptor = "FASTTRACK.JETLANE.EXAMPLE";
    const other = await runNpmScript("stripe:setup", [], env);
    expect(other.code).toBe(1);
    expect(other.output).toContain("but Stripe's statement descriptor is FASTTRACK.JETLANE.EXAMPLE");

    fake.statementDescriptor = STATEMENT_DESCRIPTOR.toLowerCase();
    const same = await runNpmScript("stripe:setup", [], env);
    expect(same.code).toBe(0);
    expect(same.output).toContain(
      `statement descriptor: ${STATEMENT_DESCRIPTOR} (as the payment pages and the terms say)`,
    );
    expect(same.output).toContain("Stripe is ready for memberships.");
  });

  it("says what is wrong when Stripe is not configured or refuses the key", async () => {
    const unset = await runNpmScript("stripe:setup", [], { STRIPE_SECRET_KEY: "" });
    expect(unset).toMatchObject({ code: 1, output: expect.stringContaining("STRIPE_SECRET_KEY is not set") });
    const wrongKey = await runNpmScript("stripe:setup", [], { ...env, STRIPE_SECRET_KEY: "sk_test_wrong" });
    expect(wrongKey).toMatchObject({ code: 1, output: expect.stringContaining("Stripe setup failed") });
  });
});
