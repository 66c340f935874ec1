import { resolve } from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import type Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { failedProviderEvents, orders, outbox, payments, providerEvents } from "~/db/schema";
import type { KeysetPage } from "~/features/admin/keyset.server";
import type { FailedMailRow } from "~/features/admin/system/failed-mails-admin.server";
import type { SystemFacts } from "~/features/admin/system/system-facts.server";
import { openOrderPayment } from "~/features/booking/hosted-checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { OutboxWorker } from "~/platform/mail/outbox-worker.server";
import { smtpTransport } from "~/platform/mail/transport.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { createStripeClient } from "~/features/payments/stripe/stripe-client.server";
import { createStripeGateway } from "~/features/payments/stripe/stripe-gateway.server";
import { setUpStripeCatalogue } from "~/features/payments/stripe/stripe-setup.server";
import type { FailedEventRow } from "~/features/provider-events/failed-events.server";
import {
  EVENT_KEPT_FOR_RETRY,
  receiveStripeEvent,
  retryFailedEvent,
} from "~/features/provider-events/stripe-webhook.server";
import { readBuildInfo } from "~/lib/build-info.server";
import { action as failedEmailsAction, loader as failedEmailsLoader } from "~/routes/admin.system.failed-emails";
import { action as failedEventsAction, loader as failedEventsLoader } from "~/routes/admin.system.failed-events";
import { loader as systemLoader } from "~/routes/admin.system";
import { bookingInput } from "../../support/integration/booking-helpers";
import { databaseWithAdmin, formRequest, pageRequest, toastOf } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { freePort } from "../../support/free-port";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink.mjs";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";
import { stripeBrowser } from "../../support/stripe/stripe-browser";
import { testDatabaseKind } from "../../support/test-database";

// Failed work in the back office (ADR 026): a mail the outbox gave up on and a Stripe event whose
// handling failed are listed with their error, and retried once each however often the button is pressed.

const { db, admin } = databaseWithAdmin();
const silent = pino({ level: "silent" });
const FROM = "Jetlane <no-reply@jetlane.example>";
const FAILED_EMAILS = "/admin/system/failed-emails";
const FAILED_EVENTS = "/admin/system/failed-events";

let sink: SmtpSink;
let deadSmtpUrl: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  deadSmtpUrl = `smtp://127.0.0.1:${await freePort()}`;
});

afterAll(async () => {
  await sink.close();
});

async function loaded<T>(loader: (args: never) => unknown, path: string) {
  const result = await routeResult(() => loader(routeArgs(pageRequest(path, { cookie: admin().cookie }))));
  expect(result.status).toBe(200);
  return result.data as T;
}

const systemPage = async () => (await loaded<{ facts: SystemFacts }>(systemLoader, "/admin/system")).facts;

function post(action: (args: never) => unknown, path: string, fields: Record<string, string>) {
  return routeResult(() => action(routeArgs(formRequest(path, fields, { cookie: admin().cookie }))));
}

async function mailRow(id: string) {
  const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
  return row!;
}

/** A mail queued and tried against an SMTP port nothing listens on until the worker gives it up. */
async function mailThatFailed(to: string) {
  await enqueueMail(db(), { to, subject: "Votre réservation", text: "Bonjour" });
  const [{ id }] = (await db().select({ id: outbox.id }).from(outbox).where(eq(outbox.to, to))) as [{ id: string }];
  const failing = new OutboxWorker({
    db: db(),
    transport: smtpTransport(deadSmtpUrl),
    from: FROM,
    logger: silent,
    maxAttempts: 3,
  });
  try {
    for (let attempt = 1; attempt <= 3; attempt++) {
      await db()
        .update(outbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(outbox.id, id));
      expect(await failing.runOnce()).toBe(1);
    }
  } finally {
    await failing.stop();
  }
  return id;
}

describe(`failed mails in the back office on ${testDatabaseKind()}`, () => {
  beforeEach(async () => {
    await db().delete(outbox);
    sink.messages.length = 0;
  });

  it("lists a mail that exhausted its retries with its error; a retry sends it once, recorded with who and when", async () => {
    const to = "grace@example.org";
    const id = await mailThatFailed(to);
    const failed = await mailRow(id);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, retriedAt: null, retriedBy: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
    expect(failed.failedAt).toBeInstanceOf(Date);
    expect((await systemPage()).mail).toMatchObject({ failed: 1, waiting: 0 });

    const listed = (await loaded<{ mails: KeysetPage<FailedMailRow> }>(failedEmailsLoader, FAILED_EMAILS)).mails;
    expect(listed.rows).toEqual([
      {
        id,
        to,
        subject: "Votre réservation",
        attempts: 3,
        lastError: failed.lastError,
        createdAt: failed.createdAt,
        failedAt: failed.failedAt,
        retriedAt: null,
        retriedBy: null,
      },
    ]);

    const retried = await post(failedEmailsAction, FAILED_EMAILS, { id });
    expect(retried).toMatchObject({ status: 302, location: FAILED_EMAILS });
    expect(toastOf(retried.headers)).toEqual({
      type: "success",
      title: "E-mail remis en file d'attente",
      description: `Il part vers ${to} dans quelques instants.`,
    });
    const queued = await mailRow(id);
    expect(queued).toMatchObject({ status: "pending", attempts: 0, failedAt: null, retriedBy: admin().email });
    expect(Date.now() - queued.retriedAt!.getTime()).toBeLessThan(60_000);
    expect(queued.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect((await systemPage()).mail).toMatchObject({ failed: 0, waiting: 1 });

    // A second click finds nothing failed: the mail is queued once.
    const again = await post(failedEmailsAction, FAILED_EMAILS, { id });
    expect(toastOf(again.headers)).toEqual({
      type: "info",
      title: "Rien à renvoyer",
      description: `Cet e-mail à ${to} est déjà en file d'attente : rien n'a été changé.`,
    });
    expect(await mailRow(id)).toMatchObject({ status: "pending", attempts: 0 });

    const working = new OutboxWorker({
      db: db(),
      transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`),
      from: FROM,
      logger: silent,
    });
    try {
      expect(await working.runOnce()).toBe(1);
      expect(await working.runOnce()).toBe(0);
    } finally {
      await working.stop();
    }
    expect(sink.messages.filter((message) => message.envelopeTo.includes(to))).toHaveLength(1);
    expect(await mailRow(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null, retriedBy: admin().email });

    const afterSending = await post(failedEmailsAction, FAILED_EMAILS, { id });
    expect(toastOf(afterSending.headers)?.description).toBe(
      `Cet e-mail à ${to} a déjà été envoyé : rien n'a été changé.`,
    );
    expect((await loaded<{ mails: KeysetPage<FailedMailRow> }>(failedEmailsLoader, FAILED_EMAILS)).mails.rows).toEqual(
      [],
    );
  });

  it("refuses an id that is no mail's, and one that is not an id, changing nothing", async () => {
    const id = await mailThatFailed("hopper@example.org");
    const unknown = await post(failedEmailsAction, FAILED_EMAILS, { id: "00000000-0000-4000-8000-000000000000" });
    expect(unknown).toMatchObject({
      status: 404,
      data: { error: "Cet e-mail n'existe pas ou a été supprimé : rien n'a été renvoyé." },
    });
    const malformed = await post(failedEmailsAction, FAILED_EMAILS, { id: "1 or 1=1" });
    expect(malformed).toMatchObject({
      status: 400,
      data: { error: "Identifiant d'e-mail invalide : rien n'a été renvoyé." },
    });
    expect(await mailRow(id)).toMatchObject({ status: "failed", attempts: 3 });
  });
});

describe(`failed Stripe events in the back office on ${testDatabaseKind()}`, () => {
  const origin = "https://site.test";
  const VISA = "4242424242424242";
  let fake: FakeStripe;
  let stripe: Stripe;
  let gateway: HostedCardGateway;

  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = createStripeClient({ secretKey: fake.secretKey, apiBase: fake.origin, timeoutMs: 1_000 });
    gateway = createStripeGateway(stripe, { publishableKey: fake.publishableKey, scriptUrl: fake.jsUrl });
    await setUpStripeCatalogue(stripe, { periodMonths: 3 });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => {
    fake.outage = undefined;
  });

  const context = () => ({ db: db(), client: stripe, gateway, origin, logger: silent });
  const deliver = (event: object) =>
    receiveStripeEvent({ ...context(), webhookSecret: fake.webhookSecret }, fake.signedDelivery(event));
  const retry = (id: string) => retryFailedEvent(context(), { id, actor: { userId: null, label: admin().email } });
  /** Stripe's API failing for payment intents: the payment's handler cannot read it. */
  const paymentIntentsDown = () => (fake.outage = { status: 500, paths: /^\/v1\/payment_intents/ });

  /** An order whose card Stripe took, and Stripe's event saying so, not yet delivered. */
  async function paidAtStripe(email: string) {
    const { orderId } = await createBooking(db(), { booking: bookingInput({ email }), currency: "EUR", userId: null });
    const opened = await openOrderPayment(db(), gateway, { orderId, origin, consentedAt: new Date() });
    if (opened.kind !== "open") throw new Error(`expected an open payment, got ${opened.kind}`);
    const paymentRef = opened.clientSecret.split("_secret_")[0]!;
    expect(await stripeBrowser(fake).confirm(opened.clientSecret, VISA)).toEqual({ status: "succeeded" });
    const event = fake.events.find(
      (candidate) =>
        candidate.type === "payment_intent.succeeded" && (candidate.data.object as { id: string }).id === paymentRef,
    )!;
    return { orderId, paymentRef, event };
  }

  const orderStatus = async (orderId: string) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.status;
  const paymentsOf = (orderId: string) => db().select().from(payments).where(eq(payments.orderId, orderId));
  const failedRow = async (id: string) =>
    (await db().select().from(failedProviderEvents).where(eq(failedProviderEvents.id, id)))[0];
  const processedRows = (id: string) => db().select().from(providerEvents).where(eq(providerEvents.id, id));

  it("keeps an event whose handling failed, with its error; a retry acts on it once and marks it processed", async () => {
    const { orderId, paymentRef, event } = await paidAtStripe("ada@example.org");
    paymentIntentsDown();

    const answer = await deliver(event);
    expect(answer).toEqual({ status: 500, body: { error: EVENT_KEPT_FOR_RETRY } });
    expect(await deliver(event)).toMatchObject({ status: 500 });
    expect(await orderStatus(orderId)).toBe("not_paid");
    expect(await processedRows(event.id)).toEqual([]);
    const kept = await failedRow(event.id);
    expect(kept).toMatchObject({
      provider: "stripe",
      type: "payment_intent.succeeded",
      objectRef: paymentRef,
      attempts: 2,
      retriedAt: null,
    });
    expect(kept!.lastError).toMatch(/outage/);
    // What is kept to retry it: the event's type and its object's id, nothing of the card.
    expect(JSON.stringify(kept)).not.toMatch(/4242|card|billing_details|@example\.org/);

    const listed = await loaded<{ events: { rows: FailedEventRow[]; total: number } }>(
      failedEventsLoader,
      FAILED_EVENTS,
    );
    expect(listed.events).toEqual({ rows: [kept], total: 1 });
    expect((await systemPage()).failedEvents).toBe(1);

    // Still down: the retry fails, says why, and is counted.
    expect(await retry(event.id)).toMatchObject({ kind: "failed", type: "payment_intent.succeeded" });
    expect(await failedRow(event.id)).toMatchObject({ attempts: 3, retriedBy: admin().email });

    fake.outage = undefined;
    expect(await retry(event.id)).toEqual({ kind: "processed", type: "payment_intent.succeeded" });
    expect(await orderStatus(orderId)).toBe("paid");
    expect(await processedRows(event.id)).toMatchObject([{ id: event.id, type: "payment_intent.succeeded" }]);
    expect(await failedRow(event.id)).toBeUndefined();
    expect((await systemPage()).failedEvents).toBe(0);

    // Pressed again, or Stripe delivering it after all: the event has acted once.
    expect(await retry(event.id)).toEqual({ kind: "already-processed" });
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect(await failedRow(event.id)).toBeUndefined();
  });

  it("forgets a failed event once Stripe's next delivery gets through", async () => {
    const { orderId, event } = await paidAtStripe("lin@example.org");
    paymentIntentsDown();
    expect((await deliver(event)).status).toBe(500);
    expect(await failedRow(event.id)).toBeDefined();

    fake.outage = undefined;
    expect((await deliver(event)).status).toBe(200);
    expect(await failedRow(event.id)).toBeUndefined();
    expect(await orderStatus(orderId)).toBe("paid");
    expect(await retry(event.id)).toEqual({ kind: "already-processed" });
    expect(await retry("evt_never_seen")).toEqual({ kind: "not-found" });
  });

  it("says so, and changes nothing, when this server takes payments in the sandbox", async () => {
    const { event } = await paidAtStripe("sandbox@example.org");
    paymentIntentsDown();
    expect((await deliver(event)).status).toBe(500);

    const refused = await post(failedEventsAction, FAILED_EVENTS, { id: event.id });
    expect(refused).toMatchObject({ status: 302, location: FAILED_EVENTS });
    expect(toastOf(refused.headers)).toEqual({
      type: "error",
      title: "Relance impossible",
      description: "Stripe n'est pas configuré sur ce serveur : l'événement n'a pas été relancé.",
    });
    expect(await failedRow(event.id)).toMatchObject({ attempts: 1, retriedAt: null });
    const malformed = await post(failedEventsAction, FAILED_EVENTS, { id: "'; drop table orders" });
    expect(malformed).toMatchObject({
      status: 400,
      data: { error: "Identifiant d'événement invalide : rien n'a été relancé." },
    });
  });
});

describe(`the system page on ${testDatabaseKind()}`, () => {
  it("names the gateway, the database and the build this server runs", async () => {
    const facts = await systemPage();
    expect(facts.payments).toBe("bac à sable, aucun argent ne circule");
    expect(facts.database).toEqual({ kind: testDatabaseKind(), pooler: "none", poolSize: 10 });
    expect(facts.mail.smtp).toBe(false);
    // Whatever the last `npm run build` here wrote, or nothing without a build.
    expect(facts.build).toEqual(readBuildInfo(resolve("build/build-info.json")));
    expect(facts.jobs.map((job) => [job.job, job.intervalMinutes])).toEqual([
      ["retention", 60],
      ["billing", 15],
    ]);
  });
});
