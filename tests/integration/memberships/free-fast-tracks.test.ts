import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, orderEvents, orders, outbox, payments, user } from "~/db/schema";
import { withdrawOwnBooking } from "~/features/account/account-actions.server";
import { confirmFreeBooking, payForOrder } from "~/features/booking/checkout.server";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { createBooking } from "~/features/booking/orders.server";
import { memberAllowance } from "~/features/memberships/fast-track-allowance.server";
import type { MembershipPlan, MembershipStatus } from "~/db/schema";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { companyMonthsLater } from "~/lib/company-time";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { FIXTURE_ORIGIN, insertMembership } from "../../support/integration/memberships-fixtures";
import { insertCustomer } from "../../support/integration/orders-fixtures";
import { composeQueuedMails } from "../../support/integration/outbox-compose";
import { testDatabaseKind } from "../../support/test-database";
import { expectTotalsToMatchRecount } from "../../support/integration/totals-recount";
import { formRequest } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { action as paymentAction } from "~/routes/fast-track-payment.$orderId";

const db = bookingTestDatabase();
// A paid quarter from 1 December 2026 to 1 March 2027 (Amsterdam), which holds a February month end.
const PERIOD_START = new Date("2026-11-30T23:00:00Z");
const IN_DECEMBER = new Date("2026-12-10T09:00:00Z");
const ADMIN = { userId: null, label: "admin@example.com" };
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123" };

async function member({
  plan = "medium",
  status = "active",
}: { plan?: MembershipPlan; status?: MembershipStatus } = {}) {
  const email = `member-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await insertCustomer(db(), "Mia Jansen", email);
  const membership = await insertMembership(db(), { customerId: customer.id, email, plan, status });
  await db()
    .insert(user)
    .values({ id: `user-${email}`, name: "Mia Jansen", email });
  if (status !== "trialing") {
    await db()
      .update(memberships)
      .set({ currentPeriodStart: PERIOD_START, currentPeriodEnd: companyMonthsLater(PERIOD_START, 3) })
      .where(eq(memberships.id, membership.id));
  }
  return { email, membership };
}

/** A booking by the signed-in member under their own address, unless told otherwise. */
async function book(email: string, { adults = 1, children = 0, now = IN_DECEMBER, signedIn = true } = {}) {
  const { orderId } = await createBooking(
    db(),
    {
      booking: bookingInput({ email, adults, children }),
      currency: "EUR",
      userId: signedIn ? `user-${email}` : null,
      accountEmail: signedIn ? email : null,
    },
    now,
  );
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

describe(`free fast-track accesses on ${testDatabaseKind()}`, () => {
  it("prices the passengers past what is left: 3 passengers on Medium's 2 pay for 1, the next booking pays for all", async () => {
    const { email } = await member();
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({
      perMonth: 2,
      used: 0,
      left: 2,
      month: "December",
    });
    const first = await book(email, { adults: 2, children: 1 });
    expect(first).toMatchObject({ amount: 1100, freeAccesses: 2, status: "not_paid" });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ used: 2, left: 0 });
    const second = await book(email, { adults: 2 });
    expect(second).toMatchObject({ amount: 2200, freeAccesses: 0, allowanceMembershipId: null });
  });

  it("never spends more than is left: 20 bookings at once by one Premium member get 5 free passengers in all", async () => {
    const { email, membership } = await member({ plan: "premium" });
    const booked = await Promise.all(Array.from({ length: 20 }, () => book(email)));
    const free = booked.filter((order) => order.freeAccesses === 1);
    expect(free).toHaveLength(5);
    expect(free.every((order) => order.amount === 0 && order.allowanceMembershipId === membership.id)).toBe(true);
    expect(booked.filter((order) => order.amount === 1100)).toHaveLength(15);
  });

  it("counts by the Amsterdam month: 23:59:59 on 31 January is January's, a second later February's", async () => {
    const { email } = await member();
    const lastSecondOfJanuary = new Date("2027-01-31T22:59:59Z");
    const firstOfFebruary = new Date("2027-01-31T23:00:00Z");
    expect(await book(email, { adults: 2, now: lastSecondOfJanuary })).toMatchObject({ amount: 0, freeAccesses: 2 });
    expect(await memberAllowance(db(), email, lastSecondOfJanuary)).toMatchObject({ month: "January", left: 0 });
    expect(await memberAllowance(db(), email, firstOfFebruary)).toMatchObject({ month: "February", left: 2 });
    expect(await book(email, { adults: 2, now: firstOfFebruary })).toMatchObject({ amount: 0, freeAccesses: 2 });
    // 28 February 2027, the month's last day, still February's.
    expect(await book(email, { now: new Date("2027-02-28T22:30:00Z") })).toMatchObject({ amount: 1100 });
  });

  it("gives nothing during the trial, while past due, to a guest with the member's address, or for another address", async () => {
    const trial = await member({ status: "trialing" });
    expect(await book(trial.email)).toMatchObject({ amount: 1100, freeAccesses: 0 });
    expect((await memberAllowance(db(), trial.email, IN_DECEMBER))?.standing.kind).toBe("after-trial");
    const pastDue = await member({ status: "past_due" });
    expect(await book(pastDue.email)).toMatchObject({ amount: 1100, freeAccesses: 0 });
    const paid = await member();
    expect(await book(paid.email, { signedIn: false })).toMatchObject({ amount: 1100, freeAccesses: 0 });
    const { orderId } = await createBooking(
      db(),
      {
        booking: bookingInput({ email: "friend@example.com" }),
        currency: "EUR",
        userId: `user-${paid.email}`,
        accountEmail: paid.email,
      },
      IN_DECEMBER,
    );
    expect((await db().select().from(orders).where(eq(orders.id, orderId)))[0]).toMatchObject({ freeAccesses: 0 });
    expect(await memberAllowance(db(), paid.email, IN_DECEMBER)).toMatchObject({ used: 0, left: 2 });
  });

  it("gives the accesses back when the booking is cancelled or refunded", async () => {
    const { email } = await member();
    const unpaid = await book(email, { adults: 2 });
    await changeOrderStatus(db(), { orderId: unpaid.id, to: "cancelled", actor: ADMIN });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ used: 0, left: 2 });

    const partly = await book(email, { adults: 3 });
    expect(partly).toMatchObject({ amount: 1100, freeAccesses: 2 });
    const paid = await payForOrder(db(), sandboxGateway, {
      orderId: partly.id,
      card: CARD,
      origin: FIXTURE_ORIGIN,
      consentedAt: IN_DECEMBER,
    });
    expect(paid).toMatchObject({ kind: "paid" });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ left: 0 });
    const refund = { amount: 1100, reason: "Flight cancelled", idempotencyKey: randomUUID() };
    expect(await refundOrder(db(), sandboxGateway, { orderId: partly.id, refund, actor: ADMIN })).toMatchObject({
      kind: "refunded",
    });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ used: 0, left: 2 });
    // The statistics' daily figures follow the free accesses through the payment, refund and cancellation.
    await expectTotalsToMatchRecount(db());
  });

  it("a free booking withdrawn from before its flight is cancelled, and its accesses are back", async () => {
    const { email } = await member();
    const order = await book(email, { adults: 2 });
    expect(order).toMatchObject({ amount: 0, freeAccesses: 2 });
    await confirmFreeBooking(db(), { orderId: order.id, origin: FIXTURE_ORIGIN, consentedAt: IN_DECEMBER });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ left: 0 });
    const signedIn = { id: `user-${email}`, name: "Mia Jansen", email, fullName: "Mia Jansen" };
    const answer = await withdrawOwnBooking(db(), sandboxGateway, signedIn, {
      orderId: order.id,
      scope: "fast-track",
      now: IN_DECEMBER,
      origin: FIXTURE_ORIGIN,
    });
    expect(answer).toMatchObject({ type: "success", title: "We have your withdrawal" });
    const [after] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(after!.status).toBe("cancelled");
    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, "cancelled")));
    expect(event).toMatchObject({ fromStatus: "paid", actorLabel: "customer" });
    expect(await memberAllowance(db(), email, IN_DECEMBER)).toMatchObject({ used: 0, left: 2 });
    // A paid order that cost something is still only refunded, never cancelled.
    const charged = await book(email, { adults: 3 });
    await payForOrder(db(), sandboxGateway, {
      orderId: charged.id,
      card: CARD,
      origin: FIXTURE_ORIGIN,
      consentedAt: IN_DECEMBER,
    });
    await expect(changeOrderStatus(db(), { orderId: charged.id, to: "cancelled", actor: ADMIN })).rejects.toThrow(
      /paid/,
    );
  });

  it("confirms a booking that costs nothing without a card: voucher, consent and e-mail, no payment", async () => {
    const { email } = await member({ plan: "premium" });
    const order = await book(email, { adults: 2, children: 1 });
    expect(order).toMatchObject({ amount: 0, freeAccesses: 3 });
    const confirmed = await confirmFreeBooking(db(), {
      orderId: order.id,
      origin: FIXTURE_ORIGIN,
      consentedAt: IN_DECEMBER,
    });
    expect(confirmed).toEqual({ kind: "paid", alreadyPaid: false });
    const [after] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(after).toMatchObject({ status: "paid", consentedAt: IN_DECEMBER });
    expect(after!.voucherShortCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2}$/);
    expect(await db().select().from(payments)).toHaveLength(0);
    await composeQueuedMails(db());
    const mails = await db().select().from(outbox).where(eq(outbox.to, email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain("€0");
    // Once is enough; a card payment of it is refused.
    expect(
      await confirmFreeBooking(db(), { orderId: order.id, origin: FIXTURE_ORIGIN, consentedAt: IN_DECEMBER }),
    ).toEqual({
      kind: "paid",
      alreadyPaid: true,
    });
    const paying = await book(email, { adults: 3 });
    // Premium's 5 less the 3 above: 2 of these 3 are free, the third has a price.
    expect(paying).toMatchObject({ amount: 1100, freeAccesses: 2 });
    expect(
      await confirmFreeBooking(db(), { orderId: paying.id, origin: FIXTURE_ORIGIN, consentedAt: IN_DECEMBER }),
    ).toMatchObject({ kind: "declined" });
    expect((await db().select().from(orders).where(eq(orders.id, paying.id)))[0]!.status).toBe("not_paid");
  });

  it("the payment page's form for a free booking: no consent or a price of the visitor's own is refused and changes nothing; the consent confirms it", async () => {
    const { email } = await member();
    const order = await book(email, { adults: 2 });
    expect(order).toMatchObject({ amount: 0, freeAccesses: 2 });
    const post = (fields: Record<string, string>) =>
      routeResult(() =>
        paymentAction(routeArgs(formRequest(`/fast-track-payment/${order.id}`, fields), { orderId: order.id })),
      );
    for (const fields of <Record<string, string>[]>[
      {},
      { consent: "yes" },
      { consent: "on", amount: "0" },
      { consent: "on", cardNumber: "4242424242424242" },
    ]) {
      const refused = await post(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
    }
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({
      status: "not_paid",
      consentedAt: null,
    });
    expect(await db().select().from(outbox)).toHaveLength(0);
    const confirmed = await post({ consent: "on" });
    expect(confirmed).toMatchObject({ status: 302, location: `/fast-track-payment/${order.id}` });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe("paid");
  });
});
