import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNpmScript } from "../../support/integration/npm-script";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";

let fake: FakeStripe;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeStripe();
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

  it("says what is wrong when Stripe is not configured or refuses the key", async () => {
    const unset = await runNpmScript("stripe:setup", [], { STRIPE_SECRET_KEY: "" });
    expect(unset).toMatchObject({ code: 1, output: expect.stringContaining("STRIPE_SECRET_KEY is not set") });
    const wrongKey = await runNpmScript("stripe:setup", [], { ...env, STRIPE_SECRET_KEY: "sk_test_wrong" });
    expect(wrongKey).toMatchObject({ code: 1, output: expect.stringContaining("Stripe setup failed") });
  });
});
