import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";
import { billingCycleDate } from "../../support/stripe/fake-stripe-state";
import { parseFormBody } from "../../support/stripe/request-params";

const DAY = 86_400;
const QUARTERLY = { interval: "month", interval_count: 3 } as const;
const expiry = { exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: "123" };

let fake: FakeStripe;
let stripe: Stripe;
/** The same API as a browser page sees it, with the publishable key. */
let browser: Stripe;
let receiver: Server;
const received: Stripe.Event[] = [];

function client(fake: FakeStripe, key: string, options: Stripe.StripeConfig = {}) {
  return new Stripe(key, { host: "127.0.0.1", port: Number(new URL(fake.origin).port), protocol: "http", ...options });
}

/** A webhook endpoint that accepts only what `constructEvent` verifies, as ours must. */
async function startReceiver(secret: () => string) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        const signature = request.headers["stripe-signature"] as string;
        received.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), signature, secret()));
        response.writeHead(200).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function card(number: string) {
  return browser.paymentMethods.create({ type: "card", card: { number, ...expiry } });
}

async function customerWithCard(number: string) {
  const method = await card(number);
  return stripe.customers.create({
    email: "ann@example.com",
    payment_method: method.id,
    invoice_settings: { default_payment_method: method.id },
  });
}

async function quarterlyPrice() {
  const product = await stripe.products.create({ name: "Fast track membership" });
  return stripe.prices.create({
    product: product.id,
    unit_amount: 3900,
    currency: "eur",
    recurring: { interval: "month", interval_count: 3 },
  });
}

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = client(fake, fake.secretKey);
  browser = client(fake, fake.publishableKey);
  receiver = await startReceiver(() => fake.webhookSecret);
  fake.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("the bracket notation parser", () => {
  it("nests objects and lists the way stripe-node and Stripe.js write them", () => {
    expect(
      parseFormBody(
        "metadata[orderId]=x+y&items[0][price]=p1&items[1][price]=p2&lookup_keys[]=a&lookup_keys[]=b&expand[0]=c",
      ),
    ).toEqual({
      metadata: { orderId: "x y" },
      items: [{ price: "p1" }, { price: "p2" }],
      lookup_keys: ["a", "b"],
      expand: ["c"],
    });
  });
});

describe("the fake Stripe's billing dates", () => {
  const seconds = (iso: string) => Date.parse(iso) / 1000;
  const dates = (anchor: string, recurring: { interval: "month" | "year"; interval_count: number }, count: number) =>
    Array.from({ length: count }, (_, index) =>
      new Date(billingCycleDate(seconds(anchor), index + 1, recurring) * 1000).toISOString().slice(0, 10),
    );

  it("follows Stripe's example: an anchor of January 31 bills the last day of a shorter month, then the 31st again", () => {
    expect(dates("2027-01-31T10:00:00Z", { interval: "month", interval_count: 1 }, 4)).toEqual([
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
    ]);
  });

  it("keeps a quarterly anchor's day after a short month, in leap years too", () => {
    expect(dates("2027-11-30T10:00:00Z", QUARTERLY, 4)).toEqual([
      "2028-02-29",
      "2028-05-30",
      "2028-08-30",
      "2028-11-30",
    ]);
    expect(dates("2026-11-29T10:00:00Z", QUARTERLY, 3)).toEqual(["2027-02-28", "2027-05-29", "2027-08-29"]);
    expect(dates("2028-02-29T10:00:00Z", { interval: "year", interval_count: 1 }, 2)).toEqual([
      "2029-02-28",
      "2030-02-28",
    ]);
  });
});

describe("the fake Stripe through the stripe package", () => {
  it("creates, reads and updates a customer, and refuses a wrong key", async () => {
    const created = await stripe.customers.create({ email: "ann@example.com", metadata: { userId: "u1" } });
    expect(created).toMatchObject({ object: "customer", email: "ann@example.com", metadata: { userId: "u1" } });
    expect(await stripe.customers.retrieve(created.id)).toEqual(created);
    const updated = await stripe.customers.update(created.id, { metadata: { userId: "", plan: "q" } });
    expect(updated.metadata).toEqual({ plan: "q" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: `/v1/customers/${created.id}`, key: "secret" });

    await expect(client(fake, "sk_test_wrong").customers.retrieve(created.id)).rejects.toMatchObject({
      type: "StripeAuthenticationError",
      statusCode: 401,
    });
    await expect(browser.customers.retrieve(created.id)).rejects.toMatchObject({ statusCode: 401 });
    await expect(stripe.customers.retrieve("cus_missing")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
  });

  it("answers a repeated idempotency key with the first answer, and refuses it with other parameters", async () => {
    const params = { amount: 2500, currency: "eur", metadata: { orderId: "o1" } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: "order-o1" });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: "order-o1" });
    expect(again).toEqual(first);
    expect(
      fake.events.filter((event) => event.type === "payment_intent.created" && event.data.object.id === first.id),
    ).toHaveLength(1);
    expect(fake.requests.filter((request) => request.idempotencyKey === "order-o1")).toHaveLength(2);
    await expect(
      stripe.paymentIntents.create({ ...params, amount: 2600 }, { idempotencyKey: "order-o1" }),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
  });

  it("charges a card, expands what it used, and refunds no more than was received", async () => {
    const customer = await stripe.customers.create({ email: "bob@example.com" });
    const method = await card("4242424242424242");
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "eur",
      customer: customer.id,
      setup_future_usage: "off_session",
      payment_method: method.id,
      confirm: true,
    });
    expect(intent).toMatchObject({ status: "succeeded", amount_received: 2500 });

    const read = await stripe.paymentIntents.retrieve(intent.id, { expand: ["payment_method", "latest_charge"] });
    expect(read.payment_method).toMatchObject({
      id: method.id,
      customer: customer.id,
      card: { brand: "visa", last4: "4242" },
    });
    expect(read.latest_charge).toMatchObject({ object: "charge", status: "succeeded", amount_captured: 2500 });

    expect(await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 })).toMatchObject({ amount: 1000 });
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 2000 })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "amount_too_large",
      message: "Refund amount (€20.00) is greater than unrefunded amount on charge (€15.00)",
    });
    expect(await stripe.refunds.create({ payment_intent: intent.id })).toMatchObject({ amount: 1500 });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: "charge_already_refunded",
    });
    const refunded = fake.events.filter((event) => event.type === "charge.refunded").at(-1);
    expect(refunded?.data.object).toMatchObject({ amount_refunded: 2500, refunded: true });
    expect(JSON.stringify([fake.requests, fake.events])).not.toContain("4242424242424242");
  });

  it("declines the test cards that decline, with Stripe's codes", async () => {
    for (const [number, decline_code, message] of [
      ["4000000000000002", "generic_decline", "Your card was declined."],
      ["4000000000009995", "insufficient_funds", "Your card has insufficient funds."],
    ]) {
      const intent = await stripe.paymentIntents.create({ amount: 2500, currency: "eur" });
      const failure = await stripe.paymentIntents
        .confirm(intent.id, { payment_method: (await card(number!)).id })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        type: "StripeCardError",
        statusCode: 402,
        code: "card_declined",
        decline_code,
        message,
      });
      expect((failure as Stripe.errors.StripeCardError).payment_intent?.status).toBe("requires_payment_method");
    }
  });

  it("asks a 3-D Secure card for authentication, with the publishable key and the client secret", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 2500, currency: "eur", metadata: { orderId: "o2" } });
    const method = await card("4000002760003184");
    const confirmed = await browser.paymentIntents.confirm(intent.id, {
      payment_method: method.id,
      client_secret: intent.client_secret!,
    } as Stripe.PaymentIntentConfirmParams);
    expect(confirmed).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    expect(confirmed).not.toHaveProperty("metadata");

    const authenticated = await browser.rawRequest("POST", `/v1/payment_intents/${intent.id}/authenticate`, {
      client_secret: intent.client_secret,
      result: "succeed",
    });
    expect(authenticated.status).toBe("succeeded");
    await expect(
      browser.paymentIntents.retrieve(intent.id, {
        client_secret: "pi_other_secret_x",
      } as Stripe.PaymentIntentRetrieveParams),
    ).rejects.toMatchObject({ statusCode: 400, param: "client_secret" });
  });

  it("finds prices by lookup key, which only one price holds", async () => {
    const price = await quarterlyPrice();
    const first = await stripe.prices.create({
      product: price.product as string,
      unit_amount: 3900,
      currency: "eur",
      lookup_key: "quarterly_eur",
    });
    await expect(
      stripe.prices.create({
        product: price.product as string,
        unit_amount: 4200,
        currency: "eur",
        lookup_key: "quarterly_eur",
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "lookup_key" });
    expect((await stripe.prices.list({ lookup_keys: ["quarterly_eur"] })).data.map((found) => found.id)).toEqual([
      first.id,
    ]);

    const second = await stripe.prices.create({
      product: price.product as string,
      unit_amount: 4200,
      currency: "eur",
      lookup_key: "quarterly_eur",
      transfer_lookup_key: true,
    });
    const listed = await stripe.prices.list({ lookup_keys: ["quarterly_eur"], expand: ["data.product"] });
    expect(listed).toMatchObject({ object: "list", has_more: false, url: "/v1/prices" });
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: second.id, product: { name: "Fast track membership" } });
  });

  it("runs a trial to its end: a paid invoice, the next quarter, and signed webhooks", async () => {
    const customer = await customerWithCard("4242424242424242");
    const price = await quarterlyPrice();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 3,
      metadata: { membershipId: "m1" },
    });
    const item = subscription.items.data[0]!;
    expect(subscription).toMatchObject({ status: "trialing", trial_end: item.current_period_end });

    await fake.advance(new Date((subscription.trial_end! + 60) * 1000));
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    const period = renewed.items.data[0]!;
    expect(renewed.status).toBe("active");
    expect(renewed.billing_cycle_anchor).toBe(subscription.trial_end);
    expect(period.current_period_start).toBe(subscription.trial_end);
    expect(period.current_period_end).toBe(billingCycleDate(subscription.trial_end!, 1, QUARTERLY));

    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    const invoice = await stripe.invoices.retrieve(invoices.data[0]!.id, {
      expand: ["payments.data.payment.payment_intent"],
    });
    expect(invoice).toMatchObject({
      id: renewed.latest_invoice,
      status: "paid",
      amount_paid: 3900,
      billing_reason: "subscription_cycle",
      lines: { data: [{ amount: 3900, period: { start: subscription.trial_end, end: period.current_period_end } }] },
      parent: { subscription_details: { subscription: subscription.id } },
    });
    expect(invoice.payments?.data[0]?.payment.payment_intent).toMatchObject({
      status: "succeeded",
      customer: customer.id,
    });

    await fake.settled();
    const types = received
      .filter((event) => JSON.stringify(event).includes(subscription.id))
      .map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "customer.subscription.created",
        "customer.subscription.trial_will_end",
        "invoice.paid",
        "customer.subscription.updated",
      ]),
    );
    const update = received.find(
      (event) => event.type === "customer.subscription.updated" && event.data.object.id === subscription.id,
    );
    expect(update?.data.previous_attributes).toMatchObject({ status: "trialing" });
    expect(fake.deliveries.every((delivery) => delivery.status === 200)).toBe(true);
  });

  it("keeps 4000 0000 0000 0341 for a customer and declines its every charge: a renewal stays unpaid until paid with another card", async () => {
    // Stripe: "Attaching this card to a Customer object succeeds, but attempts to charge the customer fail."
    const customer = await customerWithCard("4000000000000341");
    await expect(
      stripe.paymentIntents.create({
        amount: 2500,
        currency: "eur",
        customer: customer.id,
        payment_method: customer.invoice_settings.default_payment_method as string,
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: "StripeCardError", code: "card_declined" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: (await quarterlyPrice()).id }],
      trial_period_days: 7,
    });
    await fake.advance(new Date((subscription.trial_end! + 60) * 1000));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("past_due");
    const [invoice] = (await stripe.invoices.list({ subscription: subscription.id, status: "open" })).data;
    expect(invoice).toMatchObject({ attempt_count: 1, amount_paid: 0 });
    expect(invoice?.next_payment_attempt).toBeGreaterThan(subscription.trial_end!);

    const other = await card("5555555555554444");
    await stripe.paymentMethods.attach(other.id, { customer: customer.id });
    expect(await stripe.invoices.pay(invoice!.id, { payment_method: other.id })).toMatchObject({ status: "paid" });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");

    const ending = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(ending).toMatchObject({ cancel_at_period_end: true, cancel_at: ending.items.data[0]!.current_period_end });
    expect(await stripe.subscriptions.cancel(subscription.id)).toMatchObject({ status: "canceled" });
    expect(fake.events.at(-1)).toMatchObject({ type: "customer.subscription.deleted" });
  });

  it("ends a trial now (trial_end=now): the quarter starts and is invoiced at once; a card confirmed with setup_future_usage is kept", async () => {
    const customer = await customerWithCard("4000002760003184");
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: (await quarterlyPrice()).id }],
      trial_period_days: 3,
    });
    await expect(stripe.subscriptions.update(subscription.id, { trial_end: 1 })).rejects.toThrow(/trial_end/);
    const ended = await stripe.subscriptions.update(subscription.id, { trial_end: "now" });
    const item = ended.items.data[0]!;
    expect(ended.trial_end).toBeLessThan(subscription.trial_end!);
    expect(ended.billing_cycle_anchor).toBe(ended.trial_end);
    expect(item.current_period_end).toBe(billingCycleDate(ended.trial_end!, 1, QUARTERLY));
    // The card asks its holder to authenticate every payment: the invoice waits for the customer.
    const invoice = await stripe.invoices.retrieve(ended.latest_invoice as string, {
      expand: ["payments.data.payment.payment_intent"],
    });
    const intent = invoice.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    expect(invoice).toMatchObject({ status: "open", attempt_count: 1, next_payment_attempt: null });
    expect(intent.status).toBe("requires_action");

    const other = await card("4242424242424242");
    const paid = await browser.paymentIntents.confirm(intent.id, {
      payment_method: other.id,
      setup_future_usage: "off_session",
      client_secret: intent.client_secret,
    } as Stripe.PaymentIntentConfirmParams);
    expect(paid.status).toBe("succeeded");
    expect(await stripe.paymentMethods.retrieve(other.id)).toMatchObject({ customer: customer.id });
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: "paid" });
  });

  it("signs events for tests to post themselves, and redelivers one on demand", async () => {
    const event = fake.events.at(-1)!;
    const good = fake.signedDelivery(event);
    expect(stripe.webhooks.constructEvent(good.payload, good.signature, fake.webhookSecret).id).toBe(event.id);
    const forged = fake.signedDelivery(event, { secret: "whsec_other" });
    expect(() => stripe.webhooks.constructEvent(forged.payload, forged.signature, fake.webhookSecret)).toThrow();
    const replayed = fake.signedDelivery(event, { timestamp: Math.floor(Date.now() / 1000) - DAY });
    expect(() => stripe.webhooks.constructEvent(replayed.payload, replayed.signature, fake.webhookSecret)).toThrow(
      /tolerance/,
    );
    expect(await fake.deliver(event.id)).toBe(200);
    expect(await stripe.events.retrieve(event.id)).toMatchObject({ id: event.id, api_version: "2026-10-28.endive" });
  });

  it("answers as Stripe down when told to", async () => {
    fake.outage = { status: 500, paths: /^\/v1\/customers/ };
    try {
      await expect(client(fake, fake.secretKey, { maxNetworkRetries: 0 }).customers.create({})).rejects.toMatchObject({
        type: "StripeAPIError",
        statusCode: 500,
      });
      expect(await stripe.products.create({ name: "Still up" })).toMatchObject({ name: "Still up" });
    } finally {
      fake.outage = undefined;
    }
  });
});
