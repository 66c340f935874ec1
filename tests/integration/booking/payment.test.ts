import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { cardCharges, orderEvents, orders, outbox, payments, sandboxAnswers } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { createBooking } from "~/features/booking/orders.server";
import { voucherCheckResponse, voucherCode } from "~/features/booking/voucher.server";
import type { CardFormGateway } from "~/features/payments/gateway";
import { answersInDatabase, createSandboxGateway, sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { action, loader } from "~/routes/fast-track-payment.$orderId";
import {
  answer,
  bookingInput,
  postRequest,
  rowCounts,
  bookingTestDatabase,
} from "../../support/integration/booking-helpers";
import { composeQueuedMails } from "../../support/integration/outbox-compose";
import { routeArgs } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";
import { siteConfig } from "../../../site.config";

vi.hoisted(() => {
  process.env.APP_SECRET = "payment-test-secret-".padEnd(40, "x");
});

const db = bookingTestDatabase();

/** The sandbox, counting the charges it made: one per answer, however often the same key is sent. */
function countingGateway(sandbox: CardFormGateway = sandboxGateway, made = new Set<string>()) {
  const gateway: CardFormGateway & { readonly charges: number } = {
    ...sandbox,
    get charges() {
      return made.size;
    },
    async charge(request) {
      const answer = await sandbox.charge(request);
      made.add(answer.providerRef);
      return answer;
    },
  };
  return gateway;
}

const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" });
const origin = "https://site.test";

async function newOrder() {
  const booking = bookingInput({ email: "ann@example.com" });
  const { orderId } = await createBooking(db(), { booking, currency: "EUR", userId: null });
  return orderId;
}

async function orderRow(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

describe(`payForOrder on ${testDatabaseKind()}`, () => {
  it.each([
    ["4242424242424242", "Visa", "4242"],
    ["5555555555554444", "Mastercard", "4444"],
  ])(
    "takes %s: records the payment, marks the order paid and queues the confirmation",
    async (number, brand, last4) => {
      const orderId = await newOrder();
      const result = await payForOrder(db(), sandboxGateway, {
        orderId,
        card: card(number),
        origin,
        consentedAt: new Date(),
      });
      expect(result).toEqual({ kind: "paid", alreadyPaid: false });

      const order = await orderRow(orderId);
      expect(order.status).toBe("paid");
      const paymentRows = await db().select().from(payments).where(eq(payments.orderId, orderId));
      expect(paymentRows).toMatchObject([
        { provider: "sandbox", brand, last4, amount: 3300, currency: "EUR", outcome: "succeeded" },
      ]);
      expect(paymentRows[0]!.providerRef).toMatch(/^sandbox_/);
      const history = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
      expect(history.map((event) => event.toStatus)).toEqual(["not_paid", "paid"]);
      expect(history[1]).toMatchObject({ fromStatus: "not_paid", actorLabel: "customer" });

      // The confirmation, and the start of the membership trial that a first fast track includes.
      await composeQueuedMails(db());
      const mails = await db().select().from(outbox).orderBy(outbox.subject);
      expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
        ["ann@example.com", `Your 3-day free trial of ${siteConfig.company.name} Medium has started`],
        ["ann@example.com", `Your Fast Track booking ${order.orderNumber} is confirmed`],
      ]);
      const mail = mails[1]!;
      for (const body of [mail.textBody, mail.htmlBody!]) {
        expect(body).toContain(order.orderNumber);
        expect(body).toContain(order.voucherShortCode!);
        expect(body).toContain("€33");
        expect(body).toContain("2 adults, 1 child");
        expect(body).toContain(order.invoiceNumber!);
      }
      expect(order.invoiceNumber).toMatch(/^\d{4}-\d{6}$/);
      expect(order.voucherShortCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
      expect(mail.htmlBody).toContain('src="cid:voucher-qr"');
      expect(mail.htmlBody).not.toContain("data:");
      expect(mail.attachments).toContainEqual(
        expect.objectContaining({
          contentType: "image/png",
          cid: "voucher-qr",
          content: expect.stringMatching(/^iVBOR/),
        }),
      );
    },
  );

  it.each([
    ["4000000000000002", "declined", "Your card was declined."],
    ["4000000000009995", "insufficient_funds", "Your card has insufficient funds."],
  ])("refuses %s with the gateway's message and leaves the order not_paid", async (number, outcome, message) => {
    const orderId = await newOrder();
    const result = await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card(number),
      origin,
      consentedAt: new Date(),
    });
    expect(result).toEqual({ kind: "declined", message });
    expect((await orderRow(orderId)).status).toBe("not_paid");
    expect(await db().select({ outcome: payments.outcome }).from(payments)).toEqual([{ outcome }]);
    expect(await rowCounts(db())).toMatchObject({ outbox: 0, order_events: 1 });
  });

  it("lets a declined order be paid with another card", async () => {
    const orderId = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4000000000000002"),
      origin,
      consentedAt: new Date(),
    });
    const retry = await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    expect(retry).toEqual({ kind: "paid", alreadyPaid: false });
    expect((await rowCounts(db())).payments).toBe(2);
  });

  it("charges nothing for an order that is already paid", async () => {
    const orderId = await newOrder();
    const gateway = countingGateway();
    await payForOrder(db(), gateway, { orderId, card: card("4242424242424242"), origin, consentedAt: new Date() });
    const again = await payForOrder(db(), gateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    expect(again).toEqual({ kind: "paid", alreadyPaid: true });
    expect(gateway.charges).toBe(1);
    expect(await rowCounts(db())).toMatchObject({ payments: 1, outbox: 2, memberships: 1 });
  });

  it("charges once when the same order is paid twice at the same moment", async () => {
    const orderId = await newOrder();
    const gateway = countingGateway();
    const results = await Promise.all(
      [1, 2].map(() =>
        payForOrder(db(), gateway, { orderId, card: card("4242424242424242"), origin, consentedAt: new Date() }),
      ),
    );
    expect(results.map((result) => result.kind === "paid" && result.alreadyPaid).sort()).toEqual([false, true]);
    expect(gateway.charges).toBe(1);
    expect(await rowCounts(db())).toMatchObject({ payments: 1, outbox: 2, memberships: 1 });
  });

  it("starts one trial when two orders of one address are paid at the same moment, and tells of it once", async () => {
    const orderIds = [await newOrder(), await newOrder()];
    // Both charges are asked for before either is answered: each payment saw the address without a trial.
    let arrive!: () => void;
    const bothAsked = new Promise<void>((resolve) => (arrive = resolve));
    let asked = 0;
    const gateway: CardFormGateway = {
      ...sandboxGateway,
      async charge(request) {
        expect(request.saveCard).toBe(true);
        if (++asked === 2) arrive();
        await bothAsked;
        return sandboxGateway.charge(request);
      },
    };
    const results = await Promise.all(
      orderIds.map((orderId) =>
        payForOrder(db(), gateway, { orderId, card: card("4242424242424242"), origin, consentedAt: new Date() }),
      ),
    );
    expect(results).toEqual([
      { kind: "paid", alreadyPaid: false },
      { kind: "paid", alreadyPaid: false },
    ]);
    await composeQueuedMails(db());
    const subjects = (await db().select({ subject: outbox.subject }).from(outbox)).map(({ subject }) => subject);
    expect(subjects.filter((subject) => subject.includes("free trial"))).toHaveLength(1);
    expect(subjects.filter((subject) => subject.includes("is confirmed"))).toHaveLength(2);
    expect(await rowCounts(db())).toMatchObject({ payments: 2, memberships: 1 });
    // Only the confirmation of the order that started the trial speaks of it.
    const confirmations = await db()
      .select({ text: outbox.textBody })
      .from(outbox)
      .where(sql`subject like '%confirmed'`);
    expect(confirmations.filter(({ text }) => text.includes("-day free trial"))).toHaveLength(1);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "sends the key of the charge that another request opened while this one waited for the order",
    async () => {
      const orderId = await newOrder();
      const sent: string[] = [];
      const gateway: CardFormGateway = {
        ...sandboxGateway,
        charge(request) {
          sent.push(request.idempotencyKey);
          return sandboxGateway.charge(request);
        },
      };
      let paying: Promise<unknown> | undefined;
      let waited = false;
      await db().transaction(async (other) => {
        await other.select().from(orders).where(eq(orders.id, orderId)).for("update");
        await other.insert(cardCharges).values({ orderId, idempotencyKey: `card:${orderId}:the other request's` });
        paying = payForOrder(db(), gateway, {
          orderId,
          card: card("4242424242424242"),
          origin,
          consentedAt: new Date(),
        });
        for (let tries = 0; !waited && tries < 200; tries++) {
          const { rows } = (await db().execute(
            sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          )) as unknown as { rows: unknown[] };
          waited = rows.length > 0;
          if (!waited) await new Promise((resolve) => setTimeout(resolve, 25));
        }
      });
      expect(waited).toBe(true);
      expect(await paying).toEqual({ kind: "paid", alreadyPaid: false });
      expect(sent).toEqual([`card:${orderId}:the other request's`]);
      expect(await db().select().from(cardCharges).where(eq(cardCharges.orderId, orderId))).toHaveLength(1);
    },
  );

  it("charges once when the process dies between the gateway's answer and the commit, and the payer tries again", async () => {
    const orderId = await newOrder();
    const made = new Set<string>();
    const beforeRestart = countingGateway(createSandboxGateway({ answers: answersInDatabase(db) }), made);
    const dying: CardFormGateway = {
      ...beforeRestart,
      async charge(request) {
        await beforeRestart.charge(request);
        throw new Error("the process was killed here");
      },
    };
    const pay = (gateway: CardFormGateway) =>
      payForOrder(db(), gateway, { orderId, card: card("4242424242424242"), origin, consentedAt: new Date() });
    await expect(pay(dying)).rejects.toThrow("killed");
    expect((await orderRow(orderId)).status).toBe("not_paid");
    expect(
      await db().select({ settledAt: cardCharges.settledAt }).from(cardCharges).where(eq(cardCharges.orderId, orderId)),
    ).toEqual([{ settledAt: null }]);

    // A new process: a sandbox of its own, which finds its first answer in the database.
    const afterRestart = countingGateway(createSandboxGateway({ answers: answersInDatabase(db) }), made);
    expect(await pay(afterRestart)).toEqual({ kind: "paid", alreadyPaid: false });
    const [opened] = await db().select().from(cardCharges).where(eq(cardCharges.orderId, orderId));
    expect(opened!.settledAt).not.toBeNull();
    const kept = await db()
      .select()
      .from(sandboxAnswers)
      .where(eq(sandboxAnswers.idempotencyKey, opened!.idempotencyKey));
    const paid = await db().select().from(payments).where(eq(payments.orderId, orderId));
    expect(paid).toMatchObject([
      { outcome: "succeeded", providerRef: (kept[0]!.answer as { providerRef: string }).providerRef },
    ]);
    // Both processes were answered with the one charge the sandbox made.
    expect([...made]).toEqual([paid[0]!.providerRef]);
  });

  it("will not take money for a cancelled order, nor for one that does not exist", async () => {
    const orderId = await newOrder();
    await changeOrderStatus(db(), { orderId, to: "cancelled", actor: CUSTOMER_ACTOR });
    const gateway = countingGateway();
    expect(
      await payForOrder(db(), gateway, { orderId, card: card("4242424242424242"), origin, consentedAt: new Date() }),
    ).toEqual({
      kind: "not-payable",
      status: "cancelled",
    });
    expect(
      await payForOrder(db(), gateway, {
        orderId: "00000000-0000-4000-8000-000000000000",
        card: card("4242424242424242"),
        origin,
        consentedAt: new Date(),
      }),
    ).toEqual({ kind: "not-found" });
    expect(gateway.charges).toBe(0);
  });
});

type PaymentAnswer = {
  result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
  attempt: string;
};

async function pay(orderId: string, fields: Record<string, string>) {
  const request = postRequest(`/fast-track-payment/${orderId}`, fields);
  return answer<PaymentAnswer>(await action(routeArgs<Parameters<typeof action>[0]>(request, { orderId })));
}

const nextYear = String(new Date().getFullYear() + 1);
const cardFields = (cardNumber: string) => ({
  cardNumber,
  expiryMonth: "11",
  expiryYear: nextYear,
  cvv: "987",
  consent: "on",
});

describe(`POST /fast-track-payment/{id} on ${testDatabaseKind()}`, () => {
  it("redirects a successful payment back to the order, now showing its confirmation", async () => {
    const orderId = await newOrder();
    const { status, headers } = await pay(orderId, cardFields("4242 4242 4242 4242"));
    expect(status).toBe(302);
    expect(headers.get("Location")).toBe(`/fast-track-payment/${orderId}`);
    expect((await orderRow(orderId)).status).toBe("paid");
  });

  it("shows a decline, keeping the expiry but never sending back the card number or CVV", async () => {
    const orderId = await newOrder();
    const { status, data } = await pay(orderId, cardFields("4000 0000 0000 0002"));
    expect(status).toBe(402);
    expect(data.result.error?.[""]).toEqual(["Your card was declined."]);
    expect(data.result.initialValue).toEqual({ consent: "on", expiryMonth: "11", expiryYear: nextYear });
    expect(JSON.stringify(data.result)).not.toMatch(/4000|987/);
  });

  it("refuses an invalid card with field messages and nothing charged or echoed", async () => {
    const orderId = await newOrder();
    const { status, data } = await pay(orderId, { ...cardFields("4242 4242 4242 4241"), cvv: "12" });
    expect(status).toBe(400);
    expect(data.result.error).toMatchObject({
      cardNumber: ["Card number is not valid. Please check it and try again."],
      cvv: ["CVV must be 3 or 4 digits"],
    });
    expect(JSON.stringify(data.result)).not.toContain("4241");
    expect(await rowCounts(db())).toMatchObject({ payments: 0 });
  });

  it("refuses a form that carries an amount, charging nothing", async () => {
    const orderId = await newOrder();
    const { status, data } = await pay(orderId, { ...cardFields("4242 4242 4242 4242"), amount: "1" });
    expect(status).toBe(400);
    expect(data.result.error?.[""]?.[0]).toMatch(/fields we do not accept \(amount\)/);
    expect((await orderRow(orderId)).status).toBe("not_paid");
    expect(await rowCounts(db())).toMatchObject({ payments: 0 });
  });
});

describe(`GET /fast-track-payment/{id} on ${testDatabaseKind()}`, () => {
  const load = async (orderId: string) =>
    answer<Awaited<ReturnType<typeof loader>>["data"]>(
      await loader(
        routeArgs<Parameters<typeof loader>[0]>(new Request(`http://localhost/fast-track-payment/${orderId}`), {
          orderId,
        }),
      ),
    );

  it("answers 404 for an unknown or malformed order id", async () => {
    for (const orderId of ["00000000-0000-4000-8000-000000000000", "not-an-order", "1' or '1'='1"]) {
      const { status, data } = await load(orderId);
      expect(status, orderId).toBe(404);
      expect(data.order).toBeNull();
    }
  });

  it("loads an unpaid order with its summary and the card form's years, and no voucher", async () => {
    const orderId = await newOrder();
    const { status, data } = await load(orderId);
    expect(status).toBe(200);
    expect(data.order).toMatchObject({
      id: orderId,
      status: "not_paid",
      amount: 3300,
      currency: "EUR",
      customerName: "Ann Lee",
      email: "ann@example.com",
      adults: 2,
      children: 1,
    });
    expect(data.voucher).toBeNull();
    expect(data.expiryYears).toHaveLength(10);
    expect(data.expiryYears[0]).toBe(new Date().getUTCFullYear());
  });

  it("tells before payment whether paying starts the free trial: only the address's first paid order does", async () => {
    const first = await newOrder();
    expect((await load(first)).data.startsTrial).toBe(true);
    await payForOrder(db(), sandboxGateway, {
      orderId: first,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });

    const { orderId: second } = await createBooking(db(), {
      booking: bookingInput({ email: "ANN@Example.com" }),
      currency: "EUR",
      userId: null,
    });
    expect((await load(second)).data.startsTrial).toBe(false);
    const { orderId: stranger } = await createBooking(db(), {
      booking: bookingInput({ email: "bob@example.com" }),
      currency: "EUR",
      userId: null,
    });
    expect((await load(stranger)).data.startsTrial).toBe(true);
  });

  it("gives a paid order its voucher and QR code", async () => {
    const orderId = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    const { data } = await load(orderId);
    expect(data.voucher?.code).toBe(voucherCode(orderId));
    expect(data.voucher?.qrSvg).toMatch(/^<svg/);
  });
});

describe(`the voucher check on ${testDatabaseKind()}`, () => {
  const check = async (code: string) =>
    answer<{ valid: boolean; reason?: string; orderNumber?: string; flightDate?: string; passengers?: string }>(
      await voucherCheckResponse(db(), code),
    );

  it("confirms a paid order's voucher, with its order, date and passengers", async () => {
    const orderId = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    const order = await orderRow(orderId);
    const { status, data, headers } = await check(voucherCode(orderId));
    expect(status).toBe(200);
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(data).toMatchObject({
      valid: true,
      orderNumber: order.orderNumber,
      flightDate: order.flightDate,
      airport: "Paris Orly - ORY",
      passengers: "2 adults, 1 child",
      status: "paid",
    });
  });

  it("detects a tampered code", async () => {
    const orderId = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    const code = voucherCode(orderId);
    const tampered = code.slice(0, -1) + (code.endsWith("A") ? "B" : "A");
    expect(await check(tampered)).toMatchObject({
      status: 404,
      data: { valid: false, reason: "This voucher code is not genuine." },
    });
  });

  it("refuses the voucher of an unpaid or refunded order", async () => {
    const unpaid = await newOrder();
    expect((await check(voucherCode(unpaid))).data).toMatchObject({ valid: false, status: "not_paid" });
    const refunded = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId: refunded,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    await changeOrderStatus(db(), { orderId: refunded, to: "refunded", actor: CUSTOMER_ACTOR });
    expect((await check(voucherCode(refunded))).data).toMatchObject({
      valid: false,
      reason: "This voucher's order is refunded, not paid.",
    });
  });

  it("accepts the short code as typed at a desk, and refuses a mistyped one before any lookup", async () => {
    const orderId = await newOrder();
    await payForOrder(db(), sandboxGateway, {
      orderId,
      card: card("4242424242424242"),
      origin,
      consentedAt: new Date(),
    });
    const order = await orderRow(orderId);
    const code = order.voucherShortCode!;
    for (const typed of [code, code.toLowerCase().replaceAll("-", " "), code.replaceAll("-", "")]) {
      expect(await check(typed)).toMatchObject({ status: 200, data: { valid: true, orderNumber: order.orderNumber } });
    }
    const symbols = [...code.replaceAll("-", "")];
    const wrong = [...symbols];
    wrong[3] = wrong[3] === "7" ? "8" : "7";
    const swapped = [...symbols];
    const at = swapped.findIndex((symbol, index) => symbol !== swapped[index + 1]);
    [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
    for (const mistyped of [wrong.join(""), swapped.join("")]) {
      expect(await check(mistyped)).toMatchObject({
        status: 404,
        data: { valid: false, reason: "This voucher code is not genuine." },
      });
    }
  });

  it("gives an order marked paid by an admin a short code too", async () => {
    const orderId = await newOrder();
    await changeOrderStatus(db(), { orderId, to: "paid", actor: { userId: null, label: "admin@example.org" } });
    const code = (await orderRow(orderId)).voucherShortCode!;
    expect((await check(code)).data).toMatchObject({ valid: true });
  });

  it("answers 404 for a genuine code whose order is gone", async () => {
    expect(await check(voucherCode("00000000-0000-4000-8000-000000000000"))).toMatchObject({
      status: 404,
      data: { valid: false },
    });
  });
});
