import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { mailFiles, memberships, orders, outbox, payments } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { confirmationMail } from "~/features/booking/confirmation-mail";
import { bookingPageUrl } from "~/features/booking/flight-day-calendar";
import { createBooking, findOrder } from "~/features/booking/orders.server";
import { voucherCheckUrl, voucherCode, voucherQrPng } from "~/features/booking/voucher.server";
import { trialEndsAt, trialFee } from "~/features/memberships/trial-offer";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { attachmentsOf } from "~/platform/mail/mail-files.server";
import type { MailTransport } from "~/platform/mail/transport.server";
import { OutboxWorker } from "~/platform/mail/outbox-worker.server";
import { smtpTransport } from "~/platform/mail/transport.server";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink.mjs";
import { testDatabaseKind } from "../../support/test-database";
import { MAIL_TEMPLATES } from "../../../server/mail-templates";

vi.hoisted(() => {
  process.env.APP_SECRET = "confirmation-outbox-secret-".padEnd(40, "x");
});

// The confirmation e-mail of a payment is queued as data in the payment's transaction and composed
// by the outbox worker (ADR 007): the payment's request renders nothing, and the mail is still the
// one the request used to render, sent once.

const db = bookingTestDatabase();
const origin = "https://site.test";
const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };
let sink: SmtpSink;
const workers: OutboxWorker[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
});

afterAll(async () => {
  await sink.close();
});

beforeEach(() => {
  sink.messages.length = 0;
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((started) => started.stop()));
});

function worker(transport: MailTransport = smtpTransport(`smtp://127.0.0.1:${sink.port}`)) {
  const created = new OutboxWorker({
    db: db(),
    transport,
    from: "Jetlane <no-reply@jetlane.example>",
    logger: pino({ level: "silent" }),
    templates: MAIL_TEMPLATES,
  });
  workers.push(created);
  return created;
}

async function paidOrder() {
  const { orderId } = await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
  const paid = await payForOrder(db(), sandboxGateway, { orderId, card, origin, consentedAt: new Date() });
  expect(paid).toEqual({ kind: "paid", alreadyPaid: false });
  return orderId;
}

async function confirmationsOf(orderId: string) {
  const order = (await findOrder(db(), orderId))!;
  return db()
    .select()
    .from(outbox)
    .where(eq(outbox.subject, `Your Fast Track booking ${order.orderNumber} is confirmed`));
}

/**
 * The confirmation as the payment's request rendered it before the worker composed it: from the
 * order, its consent and invoice number, its payment's time, the trial it started and the fee.
 */
async function renderedInTheRequest(orderId: string) {
  const order = (await findOrder(db(), orderId))!;
  const [recorded] = await db()
    .select({ consent: orders.consentWording, invoiceNumber: orders.invoiceNumber })
    .from(orders)
    .where(eq(orders.id, orderId));
  const [payment] = await db().select({ at: payments.createdAt }).from(payments).where(eq(payments.orderId, orderId));
  expect(await db().select().from(memberships)).toHaveLength(1);
  return confirmationMail({
    ...order,
    voucherShortCode: order.voucherShortCode!,
    voucherQrPng: voucherQrPng(voucherCheckUrl(origin, voucherCode(orderId))),
    bookingUrl: bookingPageUrl(origin, orderId),
    origin,
    paidAt: payment!.at,
    consent: recorded!.consent,
    invoiceNumber: recorded!.invoiceNumber,
    membership: { trialEndsAt: trialEndsAt(payment!.at), fee: trialFee() },
  });
}

describe(`the confirmation e-mail of a payment, on ${testDatabaseKind()}`, () => {
  it("is queued by the payment's transaction as data for the outbox worker: nothing is rendered in the request", async () => {
    const orderId = await paidOrder();
    const order = (await findOrder(db(), orderId))!;

    const [queued, ...more] = await confirmationsOf(orderId);
    expect(more).toEqual([]);
    expect(queued).toMatchObject({
      to: "ann@example.com",
      status: "pending",
      textBody: "",
      htmlBody: null,
      attachments: null,
      template: "booking-confirmation",
      templateData: {
        orderNumber: order.orderNumber,
        amount: 3300,
        currency: "EUR",
        voucherShortCode: order.voucherShortCode,
        voucherCheckUrl: voucherCheckUrl(origin, voucherCode(orderId)),
        membership: { fee: trialFee() },
      },
    });
  });

  it("names the trial in the confirmation of the one payment that started it, when two orders of an address are paid at once", async () => {
    const booked = await Promise.all(
      [1, 2].map(() => createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null })),
    );
    const paid = await Promise.all(
      booked.map(({ orderId }) =>
        payForOrder(db(), sandboxGateway, { orderId, card, origin, consentedAt: new Date() }),
      ),
    );
    expect(paid).toEqual([
      { kind: "paid", alreadyPaid: false },
      { kind: "paid", alreadyPaid: false },
    ]);
    const [membership, ...others] = await db().select().from(memberships);
    expect(others).toEqual([]);
    const named = await Promise.all(
      booked.map(async ({ orderId }) => {
        const [queued] = await confirmationsOf(orderId);
        return { orderId, membership: (queued!.templateData as { membership: unknown }).membership };
      }),
    );
    expect(named.filter((mail) => mail.membership !== null)).toEqual([
      {
        orderId: membership!.orderId,
        membership: { trialEndsAt: membership!.trialEndsAt.toISOString(), fee: trialFee() },
      },
    ]);
    const trialMails = await db().select().from(outbox).where(eq(outbox.template, "trial-started"));
    expect(trialMails).toHaveLength(1);
  });

  it("is composed by the worker as the payment's request rendered it: the same subject, text, HTML and files", async () => {
    const orderId = await paidOrder();
    const expected = await renderedInTheRequest(orderId);

    expect(await worker().runOnce()).toBeGreaterThanOrEqual(1);

    const [sent] = await confirmationsOf(orderId);
    expect(sent).toMatchObject({ status: "sent", template: null, templateData: null });
    expect(sent!.textBody).toBe(expected.text);
    expect(sent!.htmlBody).toBe(expected.html);
    expect(await attachmentsOf(db(), sent!.attachments!)).toEqual(
      expected.attachments.map(({ shared: _, ...file }) => file),
    );
    const received = sink.messages.filter((message) => message.subject === expected.subject);
    expect(received).toHaveLength(1);
    expect(received[0]!.text.trim()).toBe(expected.text);
    expect(received[0]!.attachments.map((file) => file.filename)).toEqual([
      "voucher-qr.png",
      "terms-and-conditions.html",
      "fast-track.ics",
    ]);
  });

  it("keeps the terms once for every confirmation, each mail naming them by hash, and sends them whole", async () => {
    const orderIds = [await paidOrder(), await paidOrder()];
    const terms = (await renderedInTheRequest(orderIds[0]!)).attachments.find((file) => file.shared)!;

    while ((await worker().runOnce()) > 0);

    expect(await db().select().from(mailFiles)).toMatchObject([{ content: terms.content }]);
    for (const orderId of orderIds) {
      const [sent] = await confirmationsOf(orderId);
      expect(sent!.attachments).toContainEqual({
        filename: terms.filename,
        contentType: terms.contentType,
        sha256: createHash("sha256").update(terms.content).digest("hex"),
      });
    }
    const received = sink.messages.flatMap((message) => message.attachments);
    expect(received.filter((file) => file.filename === terms.filename).map((file) => file.content)).toEqual([
      terms.content,
      terms.content,
    ]);
  });

  it("is sent once when the process died after the payment's commit, before composing it: later workers, racing and run again, send one", async () => {
    const orderId = await paidOrder();
    // No worker ran: the payment's process is gone. Two instances start afterwards.
    const restarted = [worker(), worker()];
    await Promise.all(restarted.map((started) => started.runOnce()));
    await Promise.all(restarted.map((started) => started.runOnce()));

    const { orderNumber } = (await findOrder(db(), orderId))!;
    const subject = `Your Fast Track booking ${orderNumber} is confirmed`;
    expect(sink.messages.filter((message) => message.subject === subject)).toHaveLength(1);
    expect(await confirmationsOf(orderId)).toMatchObject([{ status: "sent", attempts: 1 }]);
  });

  it("is sent once, as composed, when the worker died after composing it and before it was sent", async () => {
    const orderId = await paidOrder();
    const expected = await renderedInTheRequest(orderId);
    let reachedSending: () => void;
    const sending = new Promise<void>((resolve) => (reachedSending = resolve));
    // A worker that dies while talking to SMTP: its sending never ends, its lease is left behind.
    void worker({
      send: async (mail) => {
        if (mail.subject !== expected.subject) return;
        reachedSending();
        await new Promise(() => {});
      },
      close() {},
    }).runOnce();
    await sending;
    const [leased] = await confirmationsOf(orderId);
    expect(leased).toMatchObject({ status: "sending", textBody: expected.text, template: null });

    // The lease runs out; another worker takes the mail and sends what was composed.
    await db()
      .update(outbox)
      .set({ nextAttemptAt: new Date(0) })
      .where(eq(outbox.id, leased!.id));
    await worker().runOnce();

    const received = sink.messages.filter((message) => message.subject === expected.subject);
    expect(received.map((message) => message.text.trim())).toEqual([expected.text]);
    expect(await confirmationsOf(orderId)).toMatchObject([{ status: "sent", attempts: 2 }]);
  });
});
