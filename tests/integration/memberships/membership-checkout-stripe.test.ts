import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, outbox } from "~/db/schema";
import {
  CARD_NOT_CONFIRMED,
  openHostedCheckout,
  settleHostedCheckout,
} from "~/features/membership-checkout/membership-checkout.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { createStripeGateway } from "~/features/payments/stripe/stripe-gateway.server";
import { setUpStripeCatalogue } from "~/features/payments/stripe/stripe-setup.server";
import { companyDaysLater } from "~/lib/company-time";
import { bookingTestDatabase } from "../../support/integration/booking-helpers";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";
import { stripeBrowser } from "../../support/stripe/stripe-browser";

const db = bookingTestDatabase();
const origin = "https://site.test";
const NEEDS_3DS = "4000002760003184";
const DECLINED = "4000000000000002";

let fake: FakeStripe;
let stripe: Stripe;
let gateway: HostedCardGateway;
let browser: ReturnType<typeof stripeBrowser>;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = createStripeClient({ secretKey: fake.secretKey, apiBase: fake.origin, timeoutMs: 1_000 });
  gateway = createStripeGateway(stripe, { publishableKey: fake.publishableKey, scriptUrl: fake.jsUrl });
  browser = stripeBrowser(fake);
  await setUpStripeCatalogue(stripe, { periodMonths: 3 });
});

afterAll(async () => {
  await fake.close();
});

function input(email: string, checkoutKey: string, setupRef: string) {
  return {
    fullName: "Lotte de Wit",
    email,
    plan: "premium" as const,
    currency: "EUR" as const,
    checkoutKey,
    setupRef,
    origin,
    now: new Date(),
  };
}

describe("the membership checkout with Stripe", () => {
  it("starts the trial only on a card check Stripe says succeeded for this form's customer, with a subscription ending the trial when ours does", async () => {
    const email = `lotte.${randomUUID().slice(0, 8)}@example.com`;
    const askedBefore = fake.requests.length;
    const checkoutKey = randomUUID();
    const setup = await openHostedCheckout(gateway, { email, checkoutKey });

    // Refused by the bank, still waiting for 3-D Secure, or someone else's: nothing starts.
    expect(await browser.confirmSetup(setup.clientSecret, NEEDS_3DS)).toEqual({ status: "requires_action" });
    expect(await settleHostedCheckout(db(), gateway, input(email, checkoutKey, setup.setupRef))).toEqual({
      kind: "refused",
      message: CARD_NOT_CONFIRMED,
    });
    const stranger = await stripe.setupIntents.create({ customer: (await stripe.customers.create({})).id });
    expect(await settleHostedCheckout(db(), gateway, input(email, checkoutKey, stranger.id))).toMatchObject({
      kind: "refused",
    });
    const declined = await openHostedCheckout(gateway, { email, checkoutKey: randomUUID() });
    expect(await browser.confirmSetup(declined.clientSecret, DECLINED)).toEqual({ error: "Your card was declined." });
    expect(await db().select().from(memberships)).toEqual([]);

    expect(await browser.authenticate(setup.clientSecret, "succeed")).toBe(200);
    const now = new Date();
    const first = await settleHostedCheckout(db(), gateway, { ...input(email, checkoutKey, setup.setupRef), now });
    const again = await settleHostedCheckout(db(), gateway, input(email, checkoutKey, setup.setupRef));
    expect(first.kind).toBe("started");
    expect(again).toEqual(first);

    const [membership] = await db().select().from(memberships);
    expect(membership).toMatchObject({ plan: "premium", currency: "EUR", price: 7900, cardLast4: "3184" });
    const subscription = await stripe.subscriptions.retrieve(membership!.providerSubscriptionRef!);
    expect(subscription.trial_end).toBe(Math.floor(companyDaysLater(now, 3).getTime() / 1000));
    expect(subscription.default_payment_method).toBe(membership!.paymentMethodRef);
    expect(subscription.customer).toBe(membership!.providerCustomerRef);
    expect(await db().select().from(outbox)).toHaveLength(1);
    const created = fake.requests.slice(askedBefore).filter((request) => request.path === "/v1/subscriptions");
    expect(created).toHaveLength(1);
  });

  it("cancels at once, charging nothing, a subscription that loses the race for its address", async () => {
    const email = `sem.${randomUUID().slice(0, 8)}@example.com`;
    const eventsBefore = fake.events.length;
    const forms = [randomUUID(), randomUUID()];
    const setups = await Promise.all(forms.map((checkoutKey) => openHostedCheckout(gateway, { email, checkoutKey })));
    for (const setup of setups)
      expect(await browser.confirmSetup(setup.clientSecret, "4242424242424242")).toEqual({ status: "succeeded" });
    // Stripe takes its time to create a subscription: both forms are past their check of the address
    // before either trial is recorded, as two forms sent at the same moment would be.
    fake.outage = { delayMs: 300, paths: /^\/v1\/subscriptions$/ };
    const outcomes = await Promise.all(
      forms.map((checkoutKey, index) =>
        settleHostedCheckout(db(), gateway, input(email, checkoutKey, setups[index]!.setupRef)),
      ),
    ).finally(() => (fake.outage = undefined));
    expect(outcomes.map((outcome) => outcome.kind).toSorted()).toEqual(["had-trial", "started"]);
    const [membership] = await db().select().from(memberships);
    const events = fake.events.slice(eventsBefore);
    const created = events.filter((event) => event.type === "customer.subscription.created");
    const deleted = events.filter((event) => event.type === "customer.subscription.deleted");
    expect(created).toHaveLength(2);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.data.object.id).not.toBe(membership!.providerSubscriptionRef);
    expect((await stripe.subscriptions.retrieve(membership!.providerSubscriptionRef!)).status).toBe("trialing");
  });
});
