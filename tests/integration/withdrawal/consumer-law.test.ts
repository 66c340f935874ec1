import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { invoices, memberships, orders, outbox, payments } from "~/db/schema";
import { createBooking } from "~/features/booking/orders.server";
import { CONSENT_REQUIRED, consentWording } from "~/features/booking/start-consent";
import { runBilling } from "~/features/memberships/billing-job.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { formatAmount } from "~/lib/currency";
import { action, loader } from "~/routes/fast-track-payment.$orderId";
import { answer, bookingInput, bookingTestDatabase, postRequest } from "../../support/integration/booking-helpers";
import { composeQueuedMails } from "../../support/integration/outbox-compose";
import { routeArgs } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

vi.hoisted(() => {
  process.env.APP_SECRET = "consumer-law-test-secret-".padEnd(40, "x");
});

const db = bookingTestDatabase();

async function newOrder(email: string) {
  const { orderId } = await createBooking(db(), { booking: bookingInput({ email }), currency: "USD", userId: null });
  return orderId;
}

async function load(orderId: string) {
  const request = new Request(`http://localhost/fast-track-payment/${orderId}`);
  return answer<Awaited<ReturnType<typeof loader>>["data"]>(
    await loader(routeArgs<Parameters<typeof loader>[0]>(request, { orderId })),
  );
}

type PaymentAnswer = { result: { error?: Record<string, string[] | null> } };

async function pay(orderId: string, fields: Record<string, string>) {
  const request = postRequest(`/fast-track-payment/${orderId}`, fields);
  return answer<PaymentAnswer>(await action(routeArgs<Parameters<typeof action>[0]>(request, { orderId })));
}

const card = {
  cardNumber: "4242 4242 4242 4242",
  expiryMonth: "11",
  expiryYear: String(new Date().getFullYear() + 1),
  cvv: "987",
};

async function orderRow(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

describe(`the order and its consent, on ${testDatabaseKind()}`, () => {
  it("refuses to take the money without the ticked box, and charges nothing", async () => {
    const orderId = await newOrder("nobox@example.com");
    for (const consent of [undefined, "", "off", "yes"]) {
      const { status, data } = await pay(orderId, consent === undefined ? card : { ...card, consent });
      expect(status, String(consent)).toBe(400);
      expect(data.result.error?.consent).toEqual([CONSENT_REQUIRED]);
    }
    expect(await db().select().from(payments).where(eq(payments.orderId, orderId))).toEqual([]);
    expect(await orderRow(orderId)).toMatchObject({ status: "not_paid", consentWording: null, consentedAt: null });
  });

  it("keeps the consent's words and time with the order: with the trial's words for a first order, without after", async () => {
    const first = await newOrder("consent@example.com");
    const before = Date.now();
    expect((await pay(first, { ...card, consent: "on" })).status).toBe(302);
    const paid = await orderRow(first);
    expect(paid.status).toBe("paid");
    expect(paid.consentWording).toBe(consentWording(true));
    expect(paid.consentedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(paid.consentedAt!.getTime()).toBeLessThanOrEqual(Date.now());

    // The address has had its trial: the page offers none, and the words say so.
    const second = await newOrder("consent@example.com");
    const page = await load(second);
    expect(page.data.terms).toMatchObject({ membership: null, consent: consentWording(false) });
    expect((await pay(second, { ...card, consent: "on" })).status).toBe(302);
    expect((await orderRow(second)).consentWording).toBe(consentWording(false));
  });

  it("words the button with the obligation to pay and the order's amount", async () => {
    const orderId = await newOrder("button@example.com");
    const { data } = await load(orderId);
    const { amount, currency } = await orderRow(orderId);
    expect(data.terms!.button).toBe(`FINISH – pay ${formatAmount(amount, currency)} now`);
    expect(data.terms!.totalNow).toBe(`Total now: ${formatAmount(amount, currency)}`);
    expect(data.terms!.bought).toMatch(/^Fast Track for \d+ adults?( and \d+ child(ren)?)? at .+ on .+\.$/);
  });
});

describe(`the dates and prices told are the ones charged, on ${testDatabaseKind()}`, () => {
  it("above the button, in the e-mail and in the charge: one date and one amount", async () => {
    const email = "same-code@example.com";
    const orderId = await newOrder(email);
    const { data } = await load(orderId);
    expect((await pay(orderId, { ...card, consent: "on" })).status).toBe(302);

    const [membership] = await db().select().from(memberships).where(eq(memberships.email, email));
    // What the billing job charges: the fee of the membership, when its trial ends.
    await runBilling(db(), sandboxGateway, { now: membership!.trialEndsAt, origin: "https://site.test" });
    const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, membership!.id));
    expect(invoice).toMatchObject({ status: "paid", periodStart: membership!.trialEndsAt });
    const charged = formatAmount(invoice!.amount, invoice!.currency);
    const chargedOn = formatMemberDay(invoice!.periodStart);

    expect(data.terms!.membership).toContain(`then ${charged} every 3 months from ${chargedOn}`);
    expect(data.terms!.membership).toContain(`unless you cancel before ${chargedOn}`);
    await composeQueuedMails(db());
    const [confirmation] = await db()
      .select({ text: outbox.textBody, html: outbox.htmlBody })
      .from(outbox)
      .where(eq(outbox.subject, `Your Fast Track booking ${(await orderRow(orderId)).orderNumber} is confirmed`));
    for (const body of [confirmation!.text, confirmation!.html!]) {
      expect(body).toContain(`${charged} on ${chargedOn}`);
      expect(body).toContain("Model withdrawal form");
    }
  });
});
