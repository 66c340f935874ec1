import { randomUUID } from "node:crypto";
import { FIXTURE_ORIGIN } from "../../support/integration/memberships-fixtures";
import { addDays, addHours, addMinutes } from "date-fns";
import { and, asc, eq } from "drizzle-orm";
import { companyMonthsLater } from "~/lib/company-time";
import pino from "pino";
import type Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installDatabase, type Database } from "~/db/client.server";
import {
  hostedPayments,
  invoices,
  membershipEvents,
  memberships,
  orders,
  outbox,
  payments,
  failedProviderEvents,
  providerEvents,
  refunds,
  user,
} from "~/db/schema";
import { openOrderPayment, settleOrderPayment } from "~/features/booking/hosted-checkout.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { createBooking } from "~/features/booking/orders.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { runRetention } from "~/features/privacy/retention-job.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { proratedDifference } from "~/features/memberships/plan-change";
import { changePlan, keepPlan, otherPlanQuote } from "~/features/memberships/plan-change.server";
import { receiveStripeEvent } from "~/features/provider-events/stripe-webhook.server";
import { accountOverview } from "~/features/account/account.server";
import { keepProviderCard, openProviderCardSetup } from "~/features/account/provider-card.server";
import { providerFee, settleProviderFee } from "~/features/account/provider-fee.server";
import { recordWithdrawal } from "~/features/withdrawal/withdrawal.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { createStripeGateway } from "~/features/payments/stripe/stripe-gateway.server";
import { setUpStripeCatalogue } from "~/features/payments/stripe/stripe-setup.server";
import { CUSTOMER_ACTOR, type Actor } from "~/lib/actor";
import { followUpGatewayWork } from "../../../server/gateway-follow-up";
import { bookingInput, emptyBookingTables } from "../../support/integration/booking-helpers";
import { createSignedInAccount } from "../../support/integration/requests";
import { rowLockIsFree } from "../../support/integration/row-lock";
import { waitingForTheSeries } from "../../support/integration/series-wait";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";
import { billingCycleDate } from "../../support/stripe/fake-stripe-state";
import { stripeBrowser } from "../../support/stripe/stripe-browser";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";

const origin = "https://site.test";
const ADMIN: Actor = { userId: null, label: "admin@example.org" };
const VISA = "4242424242424242";
const NEEDS_3DS = "4000002760003184";
const DECLINED = "4000000000000002";
/** Stripe keeps it for a customer, and declines its every charge. */
const CHARGES_DECLINED = "4000000000000341";

let handle: TestDatabase;
const db = (): Database => handle.db;
let fake: FakeStripe;
let stripe: Stripe;
let gateway: HostedCardGateway;
let browser: ReturnType<typeof stripeBrowser>;
/** How many of the fake's events the site has been sent. */
let delivered = 0;

async function startStripe() {
  fake = await startFakeStripe();
  stripe = createStripeClient({ secretKey: fake.secretKey, apiBase: fake.origin, timeoutMs: 1_000 });
  gateway = createStripeGateway(stripe, { publishableKey: fake.publishableKey, scriptUrl: fake.jsUrl });
  browser = stripeBrowser(fake);
  await setUpStripeCatalogue(stripe, { periodMonths: 3 });
}

beforeAll(async () => {
  handle = await openTestDatabase();
  installDatabase(handle);
  await startStripe();
});

afterAll(async () => {
  installDatabase(undefined);
  await fake.close();
  await handle.destroy();
});

beforeEach(async () => {
  await emptyBookingTables(db());
  fake.outage = undefined;
  delivered = fake.events.length;
});

const silent = pino({ level: "silent" });

function receive(delivery: { payload: string; signature: string | null }, logger = silent) {
  return receiveStripeEvent(
    { db: db(), client: stripe, webhookSecret: fake.webhookSecret, gateway, origin, logger },
    delivery,
  );
}

/** Sends the site, signed, every event the fake made since the last call, in order. */
async function deliverNewEvents() {
  const events = fake.events.slice(delivered);
  delivered = fake.events.length;
  for (const event of events) expect((await receive(fake.signedDelivery(event))).status).toBe(200);
  return events.map((event) => event.type);
}

async function book(email: string) {
  const { orderId } = await createBooking(db(), { booking: bookingInput({ email }), currency: "EUR", userId: null });
  return orderId;
}

async function open(orderId: string) {
  const opened = await openOrderPayment(db(), gateway, { orderId, origin, consentedAt: new Date() });
  if (opened.kind !== "open") throw new Error(`expected an open payment, got ${opened.kind}`);
  return opened.clientSecret;
}

const settle = (orderId: string) => settleOrderPayment(db(), gateway, { by: { orderId }, origin });

async function orderStatus(orderId: string) {
  const [order] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return order?.status;
}

const mailsTo = (to: string) => db().select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.createdAt));

async function membershipOf(email: string) {
  const [membership] = await db().select().from(memberships).where(eq(memberships.email, email));
  return membership!;
}

/** Books and pays by `card` through Stripe, as the payment page does. */
async function paidOrder(email: string, card = VISA) {
  const orderId = await book(email);
  const clientSecret = await open(orderId);
  expect(await browser.confirm(clientSecret, card)).toEqual({ status: "succeeded" });
  expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
  return orderId;
}

/** The requests to create a payment intent for `orderId`, retries included. */
/** The member's bank declines every fee from now: the subscription's card becomes one that Stripe keeps but never charges. */
async function declineFeesOf(email: string) {
  const member = await membershipOf(email);
  const declining = await stripe.paymentMethods.create({
    type: "card",
    card: { number: CHARGES_DECLINED, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" },
  });
  await stripe.paymentMethods.attach(declining.id, { customer: member.providerCustomerRef! });
  await stripe.subscriptions.update(member.providerSubscriptionRef!, { default_payment_method: declining.id });
}

const paymentIntentsCreated = (orderId: string) =>
  fake.requests.filter(
    (request) =>
      request.method === "POST" && request.path === "/v1/payment_intents" && request.idempotencyKey?.includes(orderId),
  );

/** The fake's events since this test began. */
const eventsOfThisTest = () => fake.events.slice(delivered);

describe("a fast track paid through Stripe", () => {
  it("opens one payment intent per order, for the order's own amount and currency, with the card kept for the trial", async () => {
    const orderId = await book("ann@example.com");
    const first = await open(orderId);
    expect(await open(orderId)).toBe(first);

    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    const [hosted] = await db().select().from(hostedPayments).where(eq(hostedPayments.orderId, orderId));
    const intent = await stripe.paymentIntents.retrieve(hosted!.ref);
    expect(intent).toMatchObject({ amount: order!.amount, currency: "eur", setup_future_usage: "off_session" });
    expect(intent.metadata).toEqual({ orderId });
    expect(intent.customer).toBe(hosted!.customerRef);
    expect(paymentIntentsCreated(orderId).map((request) => request.idempotencyKey)).toEqual([
      `order-payment:${orderId}`,
    ]);
  });

  it("is paid only when Stripe says so: the order, the payment row, the voucher mail and the trial", async () => {
    const orderId = await book("ann@example.com");
    const clientSecret = await open(orderId);
    expect(await settle(orderId)).toMatchObject({ kind: "declined", message: expect.stringMatching(/No payment/) });
    expect(await orderStatus(orderId)).toBe("not_paid");

    expect(await browser.confirm(clientSecret, VISA)).toEqual({ status: "succeeded" });
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
    expect(await orderStatus(orderId)).toBe("paid");
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ provider: "stripe", brand: "Visa", last4: "4242", outcome: "succeeded" });
    expect(payment!.providerRef).toMatch(/^pi_/);

    // Stripe's own word arrives too, and changes nothing more.
    expect(await deliverNewEvents()).toContain("payment_intent.succeeded");
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: true });
    const mails = await mailsTo("ann@example.com");
    expect(mails.filter((mail) => /Booking Confirmed|booking/i.test(mail.subject))).toHaveLength(1);
    expect(await db().select().from(payments)).toHaveLength(1);

    const membership = await membershipOf("ann@example.com");
    expect(membership).toMatchObject({ status: "trialing", cardBrand: "Visa", cardLast4: "4242" });
    const subscription = await stripe.subscriptions.retrieve(membership.providerSubscriptionRef!);
    expect(subscription).toMatchObject({ status: "trialing", customer: membership.providerCustomerRef });
    expect(subscription.items.data[0]!.price.lookup_key).toBe("medium_eur_quarterly");
    expect(subscription.trial_end! * 1000).toBe(membership.trialEndsAt.getTime());
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "settles the payer's return in one statement, the only one that waits for the invoice series",
    async () => {
      const orderId = await book("cleo@example.com");
      expect(await browser.confirm(await open(orderId), VISA)).toEqual({ status: "succeeded" });
      let settled: Awaited<ReturnType<typeof settle>> | undefined;
      const waiting = await waitingForTheSeries(db(), async () => (settled = await settle(orderId)));
      // The settling statement, run on its own: no transaction around it to hold the series longer.
      expect(waiting).toMatch(/^with "locked" as/);
      expect(settled).toEqual({ kind: "paid", alreadyPaid: false });
      const [paid] = await db()
        .select({ status: orders.status, invoiceNumber: orders.invoiceNumber })
        .from(orders)
        .where(eq(orders.id, orderId));
      expect(paid).toMatchObject({ status: "paid", invoiceNumber: expect.stringMatching(/^\d{4}-\d{6}$/) });
      expect(await db().select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(1);
      expect(await membershipOf("cleo@example.com")).toMatchObject({ status: "trialing" });
    },
  );

  it("answers an order id that is no uuid as not found, at the opening and at the settling", async () => {
    for (const orderId of ["not-an-order", "1' or '1'='1"]) {
      expect(await openOrderPayment(db(), gateway, { orderId, origin, consentedAt: new Date() })).toEqual({
        kind: "not-found",
      });
      expect(await settle(orderId)).toEqual({ kind: "not-found" });
    }
    expect(await settleOrderPayment(db(), gateway, { by: { ref: "pi_unknown" }, origin })).toEqual({
      kind: "not-found",
    });
  });

  it("is paid by the webhook alone when the card holder never comes back", async () => {
    const orderId = await book("ben@example.com");
    expect(await browser.confirm(await open(orderId), VISA)).toEqual({ status: "succeeded" });
    await deliverNewEvents();
    expect(await orderStatus(orderId)).toBe("paid");
    expect((await membershipOf("ben@example.com")).status).toBe("trialing");
  });

  it("pays the order even when Stripe fails to start the trial, and the webhook starts it later", async () => {
    const orderId = await book("tess@example.com");
    expect(await browser.confirm(await open(orderId), VISA)).toEqual({ status: "succeeded" });
    fake.outage = { status: 500, paths: /^\/v1\/subscriptions/ };
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
    fake.outage = undefined;
    expect(await orderStatus(orderId)).toBe("paid");
    expect(await db().select().from(memberships)).toHaveLength(0);

    await deliverNewEvents();
    expect(await membershipOf("tess@example.com")).toMatchObject({ status: "trialing", orderId });
    const subscriptions = fake.requests.filter(
      (request) =>
        request.method === "POST" && request.path === "/v1/subscriptions" && request.idempotencyKey?.includes(orderId),
    );
    expect(new Set(subscriptions.map((request) => request.idempotencyKey))).toEqual(
      new Set([`order-subscription:${orderId}`]),
    );
  });

  it("runs 3-D Secure: pending until the bank's check, paid once it passes", async () => {
    const orderId = await book("cleo@example.com");
    const clientSecret = await open(orderId);
    expect(await browser.confirm(clientSecret, NEEDS_3DS)).toEqual({ status: "requires_action" });
    expect(await settle(orderId)).toEqual({ kind: "pending" });
    expect(await orderStatus(orderId)).toBe("not_paid");
    expect(await browser.authenticate(clientSecret, "succeed")).toBe(200);
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
  });

  it("stays unpaid when 3-D Secure fails or the card is declined, and the same payment takes another card", async () => {
    const orderId = await book("dan@example.com");
    const clientSecret = await open(orderId);
    await browser.confirm(clientSecret, NEEDS_3DS);
    await browser.authenticate(clientSecret, "fail");
    expect(await settle(orderId)).toMatchObject({ kind: "declined", message: expect.stringMatching(/authenticate/) });
    expect(await browser.confirm(clientSecret, DECLINED)).toEqual({ error: "Your card was declined." });
    expect(await settle(orderId)).toEqual({ kind: "declined", message: "Your card was declined." });
    await deliverNewEvents();
    expect(await orderStatus(orderId)).toBe("not_paid");
    expect(await db().select().from(memberships)).toHaveLength(0);

    expect(await open(orderId)).toBe(clientSecret);
    expect(await browser.confirm(clientSecret, VISA)).toEqual({ status: "succeeded" });
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
    expect(paymentIntentsCreated(orderId)).toHaveLength(1);
  });

  it("charges nothing and keeps the order unpaid while Stripe is down or slow; the retry opens the same payment", async () => {
    const orderId = await book("eve@example.com");
    const paths = /^\/v1\/payment_intents/;
    fake.outage = { status: 500, paths };
    await expect(openOrderPayment(db(), gateway, { orderId, origin, consentedAt: new Date() })).rejects.toThrow();
    // Slower than our timeout: Stripe may have made the intent, but we never heard.
    fake.outage = { delayMs: 2_500, paths };
    await expect(openOrderPayment(db(), gateway, { orderId, origin, consentedAt: new Date() })).rejects.toThrow();
    fake.outage = undefined;
    expect(await orderStatus(orderId)).toBe("not_paid");

    expect(await browser.confirm(await open(orderId), VISA)).toEqual({ status: "succeeded" });
    const attempts = paymentIntentsCreated(orderId);
    expect(attempts.length).toBeGreaterThan(1);
    expect(new Set(attempts.map((request) => request.idempotencyKey))).toEqual(new Set([`order-payment:${orderId}`]));
    const opened = eventsOfThisTest().filter((event) => event.type === "payment_intent.created");
    expect(opened.length).toBeLessThanOrEqual(1);
  });

  it("opens no payment that would start a trial Stripe cannot bill (npm run stripe:setup not run)", async () => {
    const bare = await startFakeStripe();
    try {
      const client = createStripeClient({ secretKey: bare.secretKey, apiBase: bare.origin });
      const unprepared = createStripeGateway(client, { publishableKey: bare.publishableKey, scriptUrl: bare.jsUrl });
      const orderId = await book("noprice@example.com");
      await expect(openOrderPayment(db(), unprepared, { orderId, origin, consentedAt: new Date() })).rejects.toThrow(
        /npm run stripe:setup/,
      );
      expect(bare.requests.filter((request) => request.method === "POST")).toEqual([]);
      expect(await db().select().from(hostedPayments)).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });

  it("gives all the money back when the order was deleted before the bank said yes", async () => {
    const orderId = await book("uma@example.com");
    const clientSecret = await open(orderId);
    expect(await browser.confirm(clientSecret, NEEDS_3DS)).toEqual({ status: "requires_action" });
    // Unpaid past its 48 hours: the retention job deletes it while the bank's check is still open.
    const run = await runRetention(db(), { now: addDays(new Date(), 3) });
    expect(run).toMatchObject({ ran: true, counts: { unpaidOrders: 1 } });
    expect(await orderStatus(orderId)).toBeUndefined();

    expect(await browser.authenticate(clientSecret, "succeed")).toBe(200);
    await deliverNewEvents();
    await deliverNewEvents();
    const intent = await stripe.paymentIntents.retrieve(clientSecret.split("_secret_")[0]!);
    expect((await stripe.charges.retrieve(intent.latest_charge as string)).amount_refunded).toBe(intent.amount);
    expect(await db().select().from(payments)).toHaveLength(0);
  });

  it("opens a new payment when Stripe's dashboard cancelled the order's", async () => {
    const orderId = await book("ray@example.com");
    const first = await open(orderId);
    const [before] = await db().select().from(hostedPayments).where(eq(hostedPayments.orderId, orderId));
    await stripe.paymentIntents.cancel(before!.ref);
    expect(await settle(orderId)).toMatchObject({ kind: "declined" });

    const second = await open(orderId);
    expect(second).not.toBe(first);
    const [after] = await db().select().from(hostedPayments).where(eq(hostedPayments.orderId, orderId));
    expect(after!.ref).not.toBe(before!.ref);
    expect(await browser.confirm(second, VISA)).toEqual({ status: "succeeded" });
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
  });

  it("gives no second trial: the address's second order keeps no card", async () => {
    await paidOrder("fay@example.com");
    const second = await book("fay@example.com");
    await open(second);
    const [hosted] = await db().select().from(hostedPayments).where(eq(hostedPayments.orderId, second));
    expect(hosted!.customerRef).toBeNull();
    expect((await stripe.paymentIntents.retrieve(hosted!.ref)).setup_future_usage).toBeNull();
  });

  it("refunds through Stripe's Refunds API, never more than was paid", async () => {
    const orderId = await paidOrder("gus@example.com");
    const refund = (amount: number, idempotencyKey: string) =>
      refundOrder(db(), gateway, { orderId, refund: { amount, reason: "Lane closed", idempotencyKey }, actor: ADMIN });
    expect(await refund(1000, crypto.randomUUID())).toMatchObject({ kind: "refunded", amount: 1000 });
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
    const intent = await stripe.paymentIntents.retrieve(payment!.providerRef);
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge.amount_refunded).toBe(1000);
    const [order] = await db().select({ amount: orders.amount }).from(orders).where(eq(orders.id, orderId));
    expect(await refund(order!.amount, crypto.randomUUID())).toMatchObject({ kind: "too-much" });
    expect(await db().select().from(refunds)).toHaveLength(1);
  });
});

describe("refunds made in Stripe's dashboard", () => {
  it("enter our ledger once, and a full one marks the order refunded", async () => {
    const orderId = await paidOrder("quinn@example.com");
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
    const [order] = await db().select({ amount: orders.amount }).from(orders).where(eq(orders.id, orderId));

    // Ours first: Stripe's event about it adds nothing.
    await refundOrder(db(), gateway, {
      orderId,
      refund: { amount: 500, reason: "Lane closed", idempotencyKey: crypto.randomUUID() },
      actor: ADMIN,
    });
    await deliverNewEvents();
    expect(await db().select().from(refunds)).toHaveLength(1);

    await stripe.refunds.create({ payment_intent: payment!.providerRef, amount: 700 });
    const [refunded] = eventsOfThisTest().filter((event) => event.type === "charge.refunded");
    await deliverNewEvents();
    await receive(fake.signedDelivery({ ...refunded!, id: "evt_again" }));
    const ledger = await db().select().from(refunds).orderBy(asc(refunds.createdAt));
    expect(ledger.map((row) => [row.amount, row.actorLabel])).toEqual([
      [500, ADMIN.label],
      [700, "stripe"],
    ]);
    expect(await orderStatus(orderId)).toBe("paid");

    await stripe.refunds.create({ payment_intent: payment!.providerRef });
    await deliverNewEvents();
    expect((await db().select().from(refunds)).reduce((sum, row) => sum + row.amount, 0)).toBe(order!.amount);
    expect(await orderStatus(orderId)).toBe("refunded");
    expect((await mailsTo("quinn@example.com")).filter((mail) => /refund/i.test(mail.subject))).toHaveLength(3);
  });
});

describe("a refund of ours whose answer was lost", () => {
  it("is finished by Stripe's webhook under the admin who asked, and not again when the admin sends the same form once more", async () => {
    const orderId = await paidOrder("vic@example.com");
    const form = { amount: 900, reason: "Lane closed", idempotencyKey: crypto.randomUUID() };
    // Stripe refunds, then our transaction fails before it records anything.
    const failing: HostedCardGateway = {
      ...gateway,
      refund: async (request) => {
        await gateway.refund(request);
        throw new Error("the database went away");
      },
    };
    await expect(refundOrder(db(), failing, { orderId, refund: form, actor: ADMIN })).rejects.toThrow();
    const ledger = () =>
      db().select({ amount: refunds.amount, status: refunds.status, actorLabel: refunds.actorLabel }).from(refunds);
    expect(await ledger()).toEqual([{ amount: 900, status: "pending", actorLabel: ADMIN.label }]);
    await deliverNewEvents();
    expect(await ledger()).toEqual([{ amount: 900, status: "done", actorLabel: ADMIN.label }]);

    expect(await refundOrder(db(), gateway, { orderId, refund: form, actor: ADMIN })).toMatchObject({
      kind: "already-refunded",
      refundedTotal: 900,
    });
    expect(await db().select().from(refunds)).toHaveLength(1);
  });
});

describe("a refund of ours that Stripe's webhook records first", () => {
  it("is told to the admin who sent the form as done, not as a form sent twice, and enters the ledger once", async () => {
    const orderId = await paidOrder("wes@example.com");
    // Stripe's charge.refunded reaches our webhook before the request that asked records Stripe's answer.
    const webhookFirst: HostedCardGateway = {
      ...gateway,
      refund: async (request) => {
        const answer = await gateway.refund(request);
        await deliverNewEvents();
        return answer;
      },
    };
    const form = { amount: 800, reason: "Lane closed", idempotencyKey: crypto.randomUUID() };
    expect(await refundOrder(db(), webhookFirst, { orderId, refund: form, actor: ADMIN })).toMatchObject({
      kind: "refunded",
      amount: 800,
      refundedTotal: 800,
    });
    const ledger = await db()
      .select({ amount: refunds.amount, status: refunds.status, actorLabel: refunds.actorLabel })
      .from(refunds);
    expect(ledger).toEqual([{ amount: 800, status: "done", actorLabel: ADMIN.label }]);
    expect((await mailsTo("wes@example.com")).filter((mail) => /refund/i.test(mail.subject))).toHaveLength(1);

    // The same form once more is the form sent twice.
    expect(await refundOrder(db(), gateway, { orderId, refund: form, actor: ADMIN })).toMatchObject({
      kind: "already-refunded",
      refundedTotal: 800,
    });
  });
});

describe("Stripe's webhook", () => {
  async function oneEvent() {
    await paidOrder("hal@example.com");
    return eventsOfThisTest().find((candidate) => candidate.type === "payment_intent.succeeded")!;
  }

  it("keeps a signed event without its object as failed, for a retry, rather than answer a bare 500", async () => {
    const event = await oneEvent();
    const { data: _data, ...withoutData } = event;
    const answer = await receive(fake.signedDelivery(withoutData));
    expect(answer.status).toBe(500);
    expect(await db().select({ id: failedProviderEvents.id }).from(failedProviderEvents)).toEqual([{ id: event.id }]);
  });

  it("refuses an unsigned, badly signed or replayed event and changes nothing", async () => {
    const event = await oneEvent();
    const { payload, signature } = fake.signedDelivery(event);
    expect((await receive({ payload, signature: null })).status).toBe(400);
    expect((await receive(fake.signedDelivery(event, { secret: "whsec_not_ours" }))).status).toBe(400);
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect((await receive(fake.signedDelivery(event, { timestamp: anHourAgo }))).status).toBe(400);
    const tenMinutesAhead = Math.floor(Date.now() / 1000) + 600;
    expect((await receive(fake.signedDelivery(event, { timestamp: tenMinutesAhead }))).status).toBe(400);
    expect((await receive({ payload: payload.replace(event.id, "evt_forged"), signature })).status).toBe(400);
    expect(await db().select().from(providerEvents)).toHaveLength(0);
    expect((await receive({ payload, signature })).status).toBe(200);
    expect(await db().select().from(providerEvents)).toMatchObject([{ id: event.id, type: event.type }]);
  });

  it("acts on an event once however often it comes, and acknowledges events it has no use for", async () => {
    const orderId = await book("ida@example.com");
    await browser.confirm(await open(orderId), VISA);
    const succeeded = eventsOfThisTest().find((event) => event.type === "payment_intent.succeeded")!;
    const logged: { msg?: string; outcome?: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const twice = await Promise.all([
      receive(fake.signedDelivery(succeeded), logger),
      receive(fake.signedDelivery(succeeded), logger),
    ]);
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await orderStatus(orderId)).toBe("paid");
    expect(await db().select().from(payments)).toHaveLength(1);
    // The log says what each delivery did: one paid the order, the other nothing.
    const outcomes = logged
      .filter((line) => line.msg === "stripe webhook: payment settled")
      .map((line) => line.outcome);
    expect(outcomes.sort()).toEqual(["already-paid", "paid"]);
    const unknown = { ...succeeded, id: "evt_unknown", type: "balance.available", data: { object: {} } };
    expect((await receive(fake.signedDelivery(unknown))).status).toBe(200);
  });

  it("reads the payment again: a failure that arrives after the success leaves the order paid", async () => {
    const orderId = await book("jon@example.com");
    const clientSecret = await open(orderId);
    await browser.confirm(clientSecret, DECLINED);
    await browser.confirm(clientSecret, VISA);
    const failed = eventsOfThisTest().find((event) => event.type === "payment_intent.payment_failed")!;
    const succeeded = eventsOfThisTest().find((event) => event.type === "payment_intent.succeeded")!;
    await receive(fake.signedDelivery(succeeded));
    await receive(fake.signedDelivery(failed));
    expect(await orderStatus(orderId)).toBe("paid");
  });
});

describe("the membership on Stripe Billing", () => {
  // These tests move Stripe's clock on: each starts with a Stripe whose clock is ours, as a trial's
  // end must be in Stripe's future.
  beforeEach(async () => {
    await fake.close();
    await startStripe();
    delivered = 0;
  });

  it("converts at the trial's end: Stripe charges, our invoice and membership follow, the member gets a receipt", async () => {
    await paidOrder("kim@example.com");
    const trial = await membershipOf("kim@example.com");
    await fake.advance(addHours(trial.trialEndsAt, 1));
    expect(await deliverNewEvents()).toEqual(expect.arrayContaining(["invoice.paid", "customer.subscription.updated"]));

    const member = await membershipOf("kim@example.com");
    expect(member.status).toBe("active");
    expect(member.currentPeriodEnd.getTime()).toBeGreaterThan(addDays(trial.trialEndsAt, 80).getTime());
    const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, member.id));
    expect(invoice).toMatchObject({ status: "paid", amount: 4900, currency: "EUR" });
    expect(invoice!.providerRef).toMatch(/^pi_/);
    expect((await mailsTo("kim@example.com")).filter((mail) => /^Receipt/.test(mail.subject))).toHaveLength(1);

    // Our own billing job leaves Stripe's memberships alone.
    const billing = await runBilling(db(), sandboxGateway, { now: addDays(member.currentPeriodEnd, 1), origin });
    expect(billing.counts).toMatchObject({ invoicesCreated: 0, charged: 0, endedUnpaid: 0 });
  });

  it("follows a renewal that fails: past due and the payment reminder, once", async () => {
    await paidOrder("lea@example.com");
    await declineFeesOf("lea@example.com");
    const trial = await membershipOf("lea@example.com");
    await fake.advance(addHours(trial.trialEndsAt, 1));
    const types = await deliverNewEvents();
    expect(types).toContain("invoice.payment_failed");
    const member = await membershipOf("lea@example.com");
    expect(member.status).toBe("past_due");
    expect(member.graceEndsAt).not.toBeNull();
    // Stripe started its next period when it billed it; ours starts once the fee is paid.
    expect(member.currentPeriodEnd).toEqual(trial.trialEndsAt);
    const reminders = (await mailsTo("lea@example.com")).filter((mail) => /^Payment reminder/.test(mail.subject));
    expect(reminders).toHaveLength(1);
  });

  /** A signed-in account whose fast track, paid with `card` (after the bank's check if it asks), started a trial that has ended. */
  async function memberWhoseTrialEnded(card: string, { feesDeclined = false } = {}) {
    const account = await createSignedInAccount(db());
    const [person] = await db().select({ id: user.id }).from(user).where(eq(user.email, account.email));
    const orderId = await book(account.email);
    const clientSecret = await open(orderId);
    if ((await browser.confirm(clientSecret, card)).status === "requires_action") {
      expect(await browser.authenticate(clientSecret, "succeed")).toBe(200);
    }
    expect(await settle(orderId)).toEqual({ kind: "paid", alreadyPaid: false });
    if (feesDeclined) await declineFeesOf(account.email);
    const trial = await membershipOf(account.email);
    await fake.advance(addHours(trial.trialEndsAt, 1));
    return { member: { id: person!.id, email: account.email, name: account.fullName, fullName: null }, trial };
  }

  it("asks the member to confirm a renewal the bank holds for 3-D Secure; confirmed on the account, it is paid", async () => {
    const { member } = await memberWhoseTrialEnded(NEEDS_3DS);
    expect(await deliverNewEvents()).toEqual(
      expect.arrayContaining(["invoice.payment_failed", "invoice.payment_action_required"]),
    );
    const pastDue = await membershipOf(member.email);
    expect(pastDue.status).toBe("past_due");
    const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, pastDue.id));
    expect(invoice).toMatchObject({ status: "open", lastOutcome: "authentication_required", nextAttemptAt: null });
    const subjects = (await mailsTo(member.email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject.startsWith("Confirm your payment of €49 "))).toHaveLength(1);
    expect(subjects.filter((subject) => subject.startsWith("Payment reminder"))).toEqual([]);

    // The account offers the fee's own payment, held for the bank, with the card it was tried with.
    expect((await accountOverview(db(), member.email)).membership).toMatchObject({ awaitsConfirmation: true });
    const fee = await providerFee(db(), gateway, member);
    expect(fee).toMatchObject({ amount: 4900, currency: "EUR", awaitsAuthentication: true, card: { last4: "3184" } });
    // Posted before the bank's check passed: nothing is paid.
    expect(
      await settleProviderFee(db(), gateway, member, { invoiceRef: fee!.invoiceRef, now: new Date(), origin }),
    ).toMatchObject({
      type: "error",
      title: "Your fee is not paid yet",
    });
    expect(await browser.confirm(fee!.clientSecret)).toEqual({ status: "requires_action" });
    expect(await browser.authenticate(fee!.clientSecret, "succeed")).toBe(200);
    expect(
      await settleProviderFee(db(), gateway, member, { invoiceRef: fee!.invoiceRef, now: new Date(), origin }),
    ).toMatchObject({
      type: "success",
      title: "Thank you: your fee is paid",
    });
    const paid = await membershipOf(member.email);
    expect(paid).toMatchObject({ status: "active", graceEndsAt: null, cardLast4: "3184" });
    // Stripe's own events a moment later change nothing more: one receipt.
    await deliverNewEvents();
    const receipts = (await mailsTo(member.email)).filter((mail) => /^Receipt/.test(mail.subject));
    expect(receipts).toHaveLength(1);
    expect(await providerFee(db(), gateway, member)).toBeNull();
  });

  it("takes a declined fee's payment with another card on the account, and charges the next fees to that card", async () => {
    const { member } = await memberWhoseTrialEnded(VISA, { feesDeclined: true });
    await deliverNewEvents();
    const pastDue = await membershipOf(member.email);
    expect(pastDue.status).toBe("past_due");
    const fee = await providerFee(db(), gateway, member);
    // Declined: the page offers the card on file, ours (the declining one was set in Stripe's dashboard).
    expect(fee).toMatchObject({ awaitsAuthentication: false, card: { last4: "4242" } });
    expect(await browser.confirm(fee!.clientSecret, VISA, { keep: true })).toEqual({ status: "succeeded" });
    // Stripe's webhook is quicker than the page: the fee is paid when the page asks, and the card still follows.
    await deliverNewEvents();
    expect(await membershipOf(member.email)).toMatchObject({ status: "active" });
    expect(
      await settleProviderFee(db(), gateway, member, { invoiceRef: fee!.invoiceRef, now: new Date(), origin }),
    ).toMatchObject({
      type: "success",
    });
    const paid = await membershipOf(member.email);
    expect(paid).toMatchObject({ status: "active", cardLast4: "4242" });
    const subscription = await stripe.subscriptions.retrieve(paid.providerSubscriptionRef!);
    expect(subscription.default_payment_method).toBe(paid.paymentMethodRef);
    const receipt = (await mailsTo(member.email)).find((mail) => /^Receipt/.test(mail.subject));
    expect(receipt?.textBody).toContain("Visa ending 4242");
    const history = await db().select().from(membershipEvents).where(eq(membershipEvents.membershipId, paid.id));
    expect(history.map((event) => event.note)).toContain("Carte remplacée par le membre : Visa •••• 4242");
  });

  it("replaces a Stripe member's card with a card setup checked by the bank: the subscription's fees go to it", async () => {
    const account = await createSignedInAccount(db());
    const [person] = await db().select({ id: user.id }).from(user).where(eq(user.email, account.email));
    const member = { id: person!.id, email: account.email, name: account.fullName, fullName: null };
    await paidOrder(account.email);
    const before = await membershipOf(account.email);

    // A card the bank refuses is not kept, and the membership keeps its card.
    const refused = await openProviderCardSetup(db(), gateway, member, "form-1");
    expect(await browser.confirmSetup(refused!.clientSecret, DECLINED)).toEqual({ error: "Your card was declined." });
    expect(await keepProviderCard(db(), gateway, member, refused!.ref)).toMatchObject({
      type: "error",
      title: "Your card was not saved",
    });
    // Nor is one whose bank check is still running, or someone else's setup.
    const setup = await openProviderCardSetup(db(), gateway, member, "form-2");
    expect(await browser.confirmSetup(setup!.clientSecret, NEEDS_3DS)).toEqual({ status: "requires_action" });
    expect(await keepProviderCard(db(), gateway, member, setup!.ref)).toMatchObject({ type: "error" });
    const stranger = await stripe.setupIntents.create({ customer: (await stripe.customers.create({})).id });
    expect(await keepProviderCard(db(), gateway, member, stranger.id)).toMatchObject({ type: "error" });
    expect(await membershipOf(account.email)).toMatchObject({ paymentMethodRef: before.paymentMethodRef });

    expect(await browser.authenticate(setup!.clientSecret, "succeed")).toBe(200);
    for (let post = 0; post < 2; post++) {
      expect(await keepProviderCard(db(), gateway, member, setup!.ref)).toMatchObject({
        type: "success",
        title: "Your card is replaced",
      });
    }
    const after = await membershipOf(account.email);
    expect(after).toMatchObject({ cardBrand: "Visa", cardLast4: "3184" });
    const subscription = await stripe.subscriptions.retrieve(after.providerSubscriptionRef!);
    expect(subscription.default_payment_method).toBe(after.paymentMethodRef);
    const customer = (await stripe.customers.retrieve(after.providerCustomerRef!)) as Stripe.Customer;
    expect(customer.invoice_settings.default_payment_method).toBe(after.paymentMethodRef);
    const history = await db().select().from(membershipEvents).where(eq(membershipEvents.membershipId, after.id));
    expect(history.filter((event) => event.note?.startsWith("Carte remplacée"))).toHaveLength(1);

    // The trial's end charges the new card, which asks its holder: the fee waits for the member.
    await fake.advance(addHours(after.trialEndsAt, 1));
    await deliverNewEvents();
    expect(await membershipOf(account.email)).toMatchObject({ status: "past_due" });
    expect(await providerFee(db(), gateway, member)).toMatchObject({
      awaitsAuthentication: true,
      card: { last4: "3184" },
    });
  });

  it("cancels at Stripe: at the period's end for the member, at once for an admin", async () => {
    await paidOrder("max@example.com");
    const member = await membershipOf("max@example.com");
    expect(
      await cancelMembership(db(), {
        membershipId: member.id,
        actor: CUSTOMER_ACTOR,
        now: new Date(),
        origin,
        gateway,
      }),
    ).toMatchObject({ kind: "cancelled", atOnce: false });
    const subscription = await stripe.subscriptions.retrieve(member.providerSubscriptionRef!);
    expect(subscription).toMatchObject({ status: "trialing", cancel_at_period_end: true });
    await deliverNewEvents();
    expect(await membershipOf("max@example.com")).toMatchObject({ status: "trialing", cancelAtPeriodEnd: true });

    await paidOrder("ned@example.com");
    const other = await membershipOf("ned@example.com");
    await cancelMembership(db(), {
      membershipId: other.id,
      atOnce: true,
      actor: ADMIN,
      now: new Date(),
      origin,
      gateway,
    });
    expect((await stripe.subscriptions.retrieve(other.providerSubscriptionRef!)).status).toBe("canceled");
    await deliverNewEvents();
    expect((await membershipOf("ned@example.com")).status).toBe("cancelled");

    // Stripe ends it at the trial's end, charging nothing.
    await fake.advance(addHours(member.trialEndsAt, 1));
    await deliverNewEvents();
    expect((await membershipOf("max@example.com")).status).toBe("cancelled");
    expect(await db().select().from(invoices)).toHaveLength(0);
  });

  it("cancels a stray subscription of an address that already has its membership", async () => {
    await paidOrder("wes@example.com");
    const second = await book("wes@example.com");
    await open(second);
    // What a lost race leaves behind when cancelling it failed: a second subscription at Stripe.
    const member = await membershipOf("wes@example.com");
    const [price] = (await stripe.prices.list({ lookup_keys: ["medium_eur_quarterly"] })).data;
    const stray = await stripe.subscriptions.create({
      customer: member.providerCustomerRef!,
      items: [{ price: price!.id }],
      trial_period_days: 3,
      metadata: { orderId: second },
    });
    await deliverNewEvents();
    expect((await stripe.subscriptions.retrieve(stray.id)).status).toBe("canceled");
    expect((await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).status).toBe("trialing");
    expect(await membershipOf("wes@example.com")).toMatchObject({ status: "trialing" });
  });

  it("cancels a stray subscription a membership checkout left for an address that already has its membership", async () => {
    await paidOrder("ida@example.com");
    const member = await membershipOf("ida@example.com");
    const [price] = (await stripe.prices.list({ lookup_keys: ["premium_eur_quarterly"] })).data;
    // What a checkout that lost the race leaves when cancelling it failed: a subscription for the address.
    const stray = await stripe.subscriptions.create({
      customer: (await stripe.customers.create({ email: "ida@example.com" })).id,
      items: [{ price: price!.id }],
      trial_period_days: 3,
      metadata: { email: "Ida@Example.com" },
    });
    await deliverNewEvents();
    expect((await stripe.subscriptions.retrieve(stray.id)).status).toBe("canceled");
    expect((await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).status).toBe("trialing");
  });

  it("ends a renewed quarter with one month's notice: Stripe cancels then (cancel_at), the rest of the fee is refunded", async () => {
    await paidOrder("pia@example.com");
    const trial = await membershipOf("pia@example.com");
    await fake.advance(addHours(trial.trialEndsAt, 1));
    await deliverNewEvents();
    await fake.advance(addHours((await membershipOf("pia@example.com")).currentPeriodEnd, 1));
    await deliverNewEvents();
    const renewed = await membershipOf("pia@example.com");
    // Stripe's own quarter: three months from its billing cycle anchor (the trial's end), in UTC.
    const anchor = trial.trialEndsAt.getTime() / 1000;
    expect(renewed).toMatchObject({
      status: "active",
      currentPeriodStart: new Date(billingCycleDate(anchor, 1, { interval: "month", interval_count: 3 }) * 1000),
    });
    const quarter = { start: renewed.currentPeriodStart, end: renewed.currentPeriodEnd };
    const [paid] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.membershipId, renewed.id), eq(invoices.periodStart, quarter.start)));
    expect(paid).toMatchObject({ status: "paid", amount: 4900 });

    const now = addDays(quarter.start, 10);
    await fake.advance(now);
    const endsAt = companyMonthsLater(now, 1);
    // The company keeps the used share rounded down.
    const refund = 4900 - Number((4900n * BigInt(+endsAt - +quarter.start)) / BigInt(+quarter.end - +quarter.start));
    // Stripe is asked with nothing of ours locked: after the cancellation is committed.
    const lockFree: boolean[] = [];
    const watching: HostedCardGateway = {
      ...gateway,
      async cancelSubscriptionAt(ref, at) {
        lockFree.push(await rowLockIsFree(db(), memberships, renewed.id));
        return gateway.cancelSubscriptionAt(ref, at);
      },
      async refund(request) {
        lockFree.push(await rowLockIsFree(db(), invoices, paid!.id));
        return gateway.refund(request);
      },
    };
    expect(
      await cancelMembership(db(), {
        membershipId: renewed.id,
        actor: CUSTOMER_ACTOR,
        now,
        origin,
        gateway: watching,
      }),
    ).toEqual({ kind: "cancelled", accessUntil: endsAt, atOnce: false, refunded: { amount: refund, currency: "EUR" } });
    expect(lockFree).toEqual([true, true]);
    const subscription = await stripe.subscriptions.retrieve(renewed.providerSubscriptionRef!);
    expect(subscription).toMatchObject({
      status: "active",
      cancel_at: Math.floor(+endsAt / 1000),
      cancel_at_period_end: false,
    });
    const stripeRefunds = await stripe.refunds.list({ payment_intent: paid!.providerRef! });
    expect(stripeRefunds.data.map((made) => made.amount)).toEqual([refund]);
    expect(await db().select({ amount: refunds.amount }).from(refunds)).toEqual([{ amount: refund }]);

    // The webhook's snapshot keeps the earlier end.
    await deliverNewEvents();
    expect(await membershipOf("pia@example.com")).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      currentPeriodEnd: endsAt,
    });
    expect(await db().select().from(refunds)).toHaveLength(1);

    // Stripe ends it at the new end and never charges the next quarter.
    await fake.advance(addHours(endsAt, 1));
    expect(await deliverNewEvents()).toContain("customer.subscription.deleted");
    expect(await membershipOf("pia@example.com")).toMatchObject({ status: "cancelled" });
    await fake.advance(addDays(quarter.end, 1));
    await deliverNewEvents();
    expect(await db().select().from(invoices).where(eq(invoices.membershipId, renewed.id))).toHaveLength(2);
  });

  it("ends a withdrawn membership at Stripe after the statement is committed, and refunds the fast track", async () => {
    const orderId = await paidOrder("wil@example.com");
    const member = await membershipOf("wil@example.com");
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    const lockFree: boolean[] = [];
    const watching: HostedCardGateway = {
      ...gateway,
      async cancelSubscription(ref) {
        lockFree.push(await rowLockIsFree(db(), memberships, member.id));
        return gateway.cancelSubscription(ref);
      },
    };
    await recordWithdrawal(db(), watching, {
      details: { fullName: "Wil Wheaton", contractNumber: order!.orderNumber, email: "wil@example.com", scope: "both" },
      idempotencyKey: crypto.randomUUID(),
      origin,
    });
    expect(lockFree).toEqual([true]);
    expect(await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).toMatchObject({ status: "canceled" });
    expect(await membershipOf("wil@example.com")).toMatchObject({ status: "cancelled", providerCancel: null });
    expect(await db().select({ amount: refunds.amount, status: refunds.status }).from(refunds)).toEqual([
      { amount: order!.amount, status: "done" },
    ]);
  });

  it("keeps a cancellation Stripe failed to hear, and tells Stripe once it answers again", async () => {
    await paidOrder("ola@example.com");
    const member = await membershipOf("ola@example.com");
    fake.outage = { status: 500 };
    const now = new Date();
    expect(
      await cancelMembership(db(), { membershipId: member.id, actor: CUSTOMER_ACTOR, now, origin, gateway }),
    ).toMatchObject({ kind: "cancelled", atOnce: false });
    fake.outage = undefined;
    expect(await membershipOf("ola@example.com")).toMatchObject({
      status: "trialing",
      cancelAtPeriodEnd: true,
      providerCancel: "period-end",
    });
    expect(await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).toMatchObject({
      cancel_at_period_end: false,
    });
    // Stripe's own snapshot, which does not know of it yet, does not undo it.
    await deliverNewEvents();
    expect(await membershipOf("ola@example.com")).toMatchObject({ cancelAtPeriodEnd: true });

    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    expect(await followUpGatewayWork(db(), gateway, { now, logger, origin: FIXTURE_ORIGIN })).toEqual({
      refunds: 0,
      cancellations: 0,
      planChanges: 0,
    });
    expect(
      await followUpGatewayWork(db(), gateway, { now: addMinutes(now, 10), logger, origin: FIXTURE_ORIGIN }),
    ).toEqual({
      refunds: 0,
      cancellations: 1,
      planChanges: 0,
    });
    expect(await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).toMatchObject({
      cancel_at_period_end: true,
    });
    expect(await membershipOf("ola@example.com")).toMatchObject({ cancelAtPeriodEnd: true, providerCancel: null });
  });
});

describe("card data in Stripe mode", () => {
  it("never reaches our database: only Stripe's references, the brand and the last four digits", async () => {
    await paidOrder("pat@example.com");
    const dump = JSON.stringify(
      await Promise.all([
        db().select().from(payments),
        db().select().from(memberships),
        db().select().from(hostedPayments),
        db().select().from(outbox),
        db().select().from(providerEvents),
      ]),
    );
    expect(dump).toContain("4242");
    expect(dump).not.toContain(VISA);
  });
});

describe("plan changes on Stripe Billing", () => {
  beforeEach(async () => {
    await fake.close();
    await startStripe();
    delivered = 0;
  });

  /** A member in the paid quarter Stripe started at the trial's end, and Stripe's clock `days` into it. */
  async function paidMember(email: string, days: number) {
    await paidOrder(email);
    await fake.advance(addHours((await membershipOf(email)).trialEndsAt, 1));
    await deliverNewEvents();
    const member = await membershipOf(email);
    expect(member.status).toBe("active");
    const now = addDays(member.currentPeriodStart, days);
    await fake.advance(now);
    return { member, now };
  }

  const changeTo = (membershipId: string, to: "medium" | "premium", now: Date, expectedAmount: number | null) =>
    changePlan(db(), gateway, {
      membershipId,
      to,
      expectedAmount,
      idempotencyKey: randomUUID(),
      actor: CUSTOMER_ACTOR,
      now,
      origin,
    });

  const priceOf = async (subscriptionRef: string) =>
    (await stripe.subscriptions.retrieve(subscriptionRef)).items.data[0]!.price.lookup_key;

  const planChangeInvoices = async (subscriptionRef: string) =>
    (await stripe.invoices.list({ subscription: subscriptionRef })).data.filter(
      (invoice) => invoice.billing_reason === "subscription_update",
    );

  it("upgrades in the paid quarter: Stripe charges at once the prorated difference the account showed, once", async () => {
    const { member, now } = await paidMember("noor@example.com", 40);
    const quote = await otherPlanQuote(db(), gateway, member.id, now);
    if (quote?.kind !== "upgrade") throw new Error(`expected an upgrade, got ${quote?.kind}`);
    // Stripe prorates to the second at the day's proration date: our count of days, but for its rounding.
    const ours = proratedDifference({
      fromFee: 4900,
      toFee: 7900,
      periodStart: member.currentPeriodStart,
      periodEnd: member.currentPeriodEnd,
      now,
    });
    expect(Math.abs(quote.amount - ours)).toBeLessThanOrEqual(1);

    const key = randomUUID();
    const request = {
      membershipId: member.id,
      to: "premium" as const,
      expectedAmount: quote.amount,
      idempotencyKey: key,
    };
    const upgrade = { ...request, actor: CUSTOMER_ACTOR, now, origin };
    expect(await changePlan(db(), gateway, upgrade)).toEqual({
      kind: "changed",
      plan: "premium",
      charged: quote.amount,
      currency: "EUR",
    });
    // The same form again: the same answer, no second charge.
    expect(await changePlan(db(), gateway, upgrade)).toMatchObject({ kind: "changed", charged: quote.amount });
    const ref = member.providerSubscriptionRef!;
    expect(await priceOf(ref)).toBe("premium_eur_quarterly");
    const [stripeInvoice, ...others] = await planChangeInvoices(ref);
    expect(others).toEqual([]);
    expect(stripeInvoice).toMatchObject({ status: "paid", amount_paid: quote.amount });

    // Its webhook finds the difference recorded: no second row, no fee receipt.
    await deliverNewEvents();
    const rows = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.membershipId, member.id))
      .orderBy(asc(invoices.createdAt));
    expect(rows.map((row) => [row.amount, row.status])).toEqual([
      [4900, "paid"],
      [quote.amount, "paid"],
    ]);
    expect(rows[1]!.providerRef).toMatch(/^pi_/);
    expect(await membershipOf("noor@example.com")).toMatchObject({ plan: "premium", price: 7900 });
    const subjects = (await mailsTo("noor@example.com")).map((mail) => mail.subject);
    expect(subjects.filter((subject) => /^Receipt/.test(subject))).toHaveLength(1);
    expect(subjects).toContain("Your membership is now Premium");

    // The next quarter is Premium's fee, billed by Stripe.
    await fake.advance(addHours(member.currentPeriodEnd, 1));
    await deliverNewEvents();
    const renewal = await db().select().from(invoices).where(eq(invoices.membershipId, member.id));
    expect(renewal.map((row) => row.amount).toSorted()).toEqual([quote.amount, 4900, 7900].toSorted());
  });

  it("a declined card leaves the plan and Stripe's price as they were, with nothing to pay", async () => {
    const { member, now } = await paidMember("ravi@example.com", 10);
    await declineFeesOf("ravi@example.com");
    const quote = await otherPlanQuote(db(), gateway, member.id, now);
    if (quote?.kind !== "upgrade") throw new Error(`expected an upgrade, got ${quote?.kind}`);

    expect(await changeTo(member.id, "premium", now, quote.amount)).toEqual({
      kind: "declined",
      message: "Your card was declined.",
    });
    expect(await priceOf(member.providerSubscriptionRef!)).toBe("medium_eur_quarterly");
    expect((await stripe.subscriptions.retrieve(member.providerSubscriptionRef!)).status).toBe("active");
    expect(await planChangeInvoices(member.providerSubscriptionRef!)).toMatchObject([{ status: "void" }]);
    expect(await membershipOf("ravi@example.com")).toMatchObject({ plan: "medium", status: "active" });
    await deliverNewEvents();
    expect(await membershipOf("ravi@example.com")).toMatchObject({ plan: "medium", status: "active" });
  });

  it("a trial's plan, a move to Medium at the quarter's end and calling it off: Stripe's price follows, nothing charged now", async () => {
    await paidOrder("ines@example.com");
    const trial = await membershipOf("ines@example.com");
    const ref = trial.providerSubscriptionRef!;
    expect(await changeTo(trial.id, "premium", new Date(), null)).toMatchObject({ kind: "changed", charged: 0 });
    expect(await priceOf(ref)).toBe("premium_eur_quarterly");

    await fake.advance(addHours(trial.trialEndsAt, 1));
    await deliverNewEvents();
    const member = await membershipOf("ines@example.com");
    const [first] = await db().select().from(invoices).where(eq(invoices.membershipId, member.id));
    expect(first).toMatchObject({ amount: 7900, status: "paid" });

    const now = addDays(member.currentPeriodStart, 20);
    await fake.advance(now);
    expect(await changeTo(member.id, "medium", now, null)).toMatchObject({ kind: "scheduled", plan: "medium" });
    expect(await priceOf(ref)).toBe("medium_eur_quarterly");
    expect(await membershipOf("ines@example.com")).toMatchObject({ plan: "premium", scheduledPlan: "medium" });
    expect(await keepPlan(db(), gateway, { membershipId: member.id, actor: CUSTOMER_ACTOR, origin })).toMatchObject({
      kind: "kept",
    });
    expect(await priceOf(ref)).toBe("premium_eur_quarterly");
    expect(await planChangeInvoices(ref)).toEqual([]);

    await fake.advance(addHours(member.currentPeriodEnd, 1));
    await deliverNewEvents();
    const fees = await db().select().from(invoices).where(eq(invoices.membershipId, member.id));
    expect(fees.map((fee) => fee.amount)).toEqual([7900, 7900]);
  });

  it("a move to Medium is made when Stripe bills the next quarter at Medium's fee", async () => {
    await paidOrder("mila@example.com");
    const trial = await membershipOf("mila@example.com");
    expect(await changeTo(trial.id, "premium", new Date(), null)).toMatchObject({ kind: "changed" });
    await fake.advance(addHours(trial.trialEndsAt, 1));
    await deliverNewEvents();
    const premium = await membershipOf("mila@example.com");
    const now = addDays(premium.currentPeriodStart, 60);
    await fake.advance(now);
    expect(await changeTo(premium.id, "medium", now, null)).toMatchObject({ kind: "scheduled" });

    await fake.advance(addHours(premium.currentPeriodEnd, 1));
    await deliverNewEvents();
    expect(await membershipOf("mila@example.com")).toMatchObject({
      plan: "medium",
      price: 4900,
      scheduledPlan: null,
      status: "active",
    });
    const fees = await db().select().from(invoices).where(eq(invoices.membershipId, premium.id));
    expect(fees.map((fee) => fee.amount).toSorted()).toEqual([4900, 7900]);
    const history = await db()
      .select({ note: membershipEvents.note, fromPlan: membershipEvents.fromPlan, plan: membershipEvents.plan })
      .from(membershipEvents)
      .where(eq(membershipEvents.membershipId, premium.id));
    expect(history).toContainEqual({
      note: "Formule : Premium → Medium, au début de la nouvelle période",
      fromPlan: "premium",
      plan: "medium",
    });
    const receipts = (await mailsTo("mila@example.com")).filter((mail) => /^Receipt/.test(mail.subject));
    expect(receipts.at(-1)?.textBody).toContain("Medium");
  });

  it("a request that dies after Stripe charged is finished by the follow-up under the same key: one charge", async () => {
    const { member, now } = await paidMember("tess@example.com", 30);
    const quote = await otherPlanQuote(db(), gateway, member.id, now);
    if (quote?.kind !== "upgrade") throw new Error(`expected an upgrade, got ${quote?.kind}`);
    const dies: HostedCardGateway = {
      ...gateway,
      async changeSubscriptionPlan(request) {
        await gateway.changeSubscriptionPlan(request);
        throw new Error("the process died");
      },
    };
    const request = {
      membershipId: member.id,
      to: "premium" as const,
      expectedAmount: quote.amount,
      idempotencyKey: randomUUID(),
      actor: CUSTOMER_ACTOR,
      now,
      origin,
    };
    await expect(changePlan(db(), dies, request)).rejects.toThrow("the process died");
    expect(await membershipOf("tess@example.com")).toMatchObject({ plan: "medium" });
    // Stripe's events come first: its invoice for the difference is not taken for a quarter's fee.
    await deliverNewEvents();
    expect(await db().select().from(invoices).where(eq(invoices.membershipId, member.id))).toHaveLength(1);

    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    const followUp = (at: Date) => followUpGatewayWork(db(), gateway, { now: at, logger, origin });
    expect(await followUp(addMinutes(now, 5))).toMatchObject({ planChanges: 0 });
    expect(await followUp(addMinutes(now, 11))).toMatchObject({ planChanges: 1 });
    expect(await followUp(addMinutes(now, 12))).toMatchObject({ planChanges: 0 });
    expect(await membershipOf("tess@example.com")).toMatchObject({ plan: "premium", price: 7900 });
    const [charged, ...again] = await planChangeInvoices(member.providerSubscriptionRef!);
    expect(again).toEqual([]);
    const [difference] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.membershipId, member.id), eq(invoices.amount, charged!.amount_paid)));
    expect(difference).toMatchObject({ status: "paid", amount: quote.amount });
    const receipts = (await mailsTo("tess@example.com")).filter((mail) => /^Receipt/.test(mail.subject));
    expect(receipts).toHaveLength(1);
    // Asked again, the same form is answered from the record.
    expect(await changePlan(db(), gateway, request)).toMatchObject({ kind: "changed", charged: quote.amount });
  });
});
