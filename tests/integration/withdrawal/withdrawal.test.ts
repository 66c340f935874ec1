import { randomUUID } from "node:crypto";
import { addDays, addMinutes } from "date-fns";
import { and, asc, eq, min } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, memberships, orderEvents, orders, outbox, refunds, withdrawals } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { createBooking } from "~/features/booking/orders.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { membershipNumber } from "~/features/memberships/membership-card.server";
import { startMembershipCheckout } from "~/features/membership-checkout/membership-checkout.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { receiptTime } from "~/features/withdrawal/receipt-time";
import { recordWithdrawal, UNMATCHED_STATEMENTS_PER_HOUR } from "~/features/withdrawal/withdrawal.server";
import { erasePersonalData, findPersonalData, personalDataCounts } from "~/features/privacy/personal-data.server";
import { withdrawalsOf } from "~/features/withdrawal/withdrawals-admin.server";
import { listWithdrawals, recentOverflow } from "~/features/admin/withdrawals/withdrawals-list.server";
import type { WithdrawalStep } from "~/features/withdrawal/withdrawal-steps";
import { companyDay } from "~/lib/company-time";
import { action as withdrawAction } from "~/routes/withdraw";
import { bookingInput, bookingTestDatabase, rowCounts } from "../../support/integration/booking-helpers";
import { formRequest } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";
import type { WithdrawalScope } from "~/db/enums";
import { lastDayToWithdraw, withdrawalPeriodEnd } from "~/features/legal/model-withdrawal-form";
import type { PaymentGateway } from "~/features/payments/gateway";

const db = bookingTestDatabase();
const origin = "https://site.test";
const ADMIN = { userId: null, label: "admin@example.org" };
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };

/** A first fast track booked and paid by `email` (its flight a month ahead): it starts the trial. */
async function paidFastTrack(email = `ada-${randomUUID().slice(0, 8)}@example.com`) {
  const { orderId } = await createBooking(db(), {
    booking: bookingInput({ firstName: "Ada", lastName: "Lovelace", email }),
    currency: "EUR",
    userId: null,
  });
  expect(
    await payForOrder(db(), sandboxGateway, { orderId, card: CARD, origin, consentedAt: new Date() }),
  ).toMatchObject({ kind: "paid" });
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  const [membership] = await db().select().from(memberships).where(eq(memberships.orderId, orderId));
  expect(membership!.status).toBe("trialing");
  return { order: order!, membership: membership!, email };
}

function withdraw(
  details: { fullName?: string; contractNumber: string; email: string; scope?: WithdrawalScope },
  { idempotencyKey = randomUUID(), now = new Date() }: { idempotencyKey?: string; now?: Date } = {},
) {
  return recordWithdrawal(db(), sandboxGateway, {
    details: { fullName: "Ada Lovelace", scope: "both", ...details },
    idempotencyKey,
    origin,
    now,
  });
}

async function mailsTo(email: string) {
  return db()
    .select({ subject: outbox.subject, text: outbox.textBody })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(asc(outbox.createdAt));
}

async function acknowledgementsTo(email: string) {
  return (await mailsTo(email)).filter((mail) => mail.subject.endsWith("we received your withdrawal"));
}

const refundsOfOrder = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));
const membershipById = async (id: string) => (await db().select().from(memberships).where(eq(memberships.id, id)))[0]!;
const allWithdrawals = () => db().select().from(withdrawals);

describe(`the withdrawal function on ${testDatabaseKind()}`, () => {
  it("takes ten statements about one contract at once: each answered, the membership ended once, one refund", async () => {
    const { order, membership, email } = await paidFastTrack();
    const now = addMinutes(new Date(), 5);
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => withdraw({ contractNumber: order.orderNumber, email }, { now })),
    );
    expect(answers.filter((answer) => answer.status === "rejected")).toEqual([]);
    expect(await allWithdrawals()).toHaveLength(10);
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect(await refundsOfOrder(order.id)).toMatchObject([{ amount: order.amount }]);
    expect(await acknowledgementsTo(email)).toHaveLength(10);
  });

  it("records the same statement sent ten times at once once", async () => {
    const { order, email } = await paidFastTrack();
    const idempotencyKey = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => withdraw({ contractNumber: order.orderNumber, email }, { idempotencyKey })),
    );
    expect(new Set(answers.map((answer) => answer.receivedAt.getTime())).size).toBe(1);
    expect(await allWithdrawals()).toHaveLength(1);
    expect(await refundsOfOrder(order.id)).toHaveLength(1);
  });

  it("within the trial: ends the membership at once and refunds the fast track whose flight is to come", async () => {
    const { order, membership, email } = await paidFastTrack();
    const mailsBefore = (await mailsTo(email)).length;
    const now = addMinutes(new Date(), 5);
    // Typed loosely: the number in lower case with spaces, the address in capitals.
    const { receivedAt } = await withdraw(
      { contractNumber: `  ${order.orderNumber.toLowerCase()} `, email: email.toUpperCase() },
      { now },
    );
    expect(receivedAt).toEqual(now);

    const ended = await membershipById(membership.id);
    expect(ended.status).toBe("cancelled");
    expect(ended.endedAt).toEqual(now);
    const [refund] = await refundsOfOrder(order.id);
    expect(refund).toMatchObject({ amount: order.amount, currency: order.currency, actorLabel: "customer" });
    const [refunded] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(refunded!.status).toBe("refunded");
    // Nothing was charged for the membership during the trial.
    expect(await db().select().from(invoices).where(eq(invoices.membershipId, membership.id))).toEqual([]);

    expect(await allWithdrawals()).toEqual([
      expect.objectContaining({
        outcome: "withdrawn",
        orderId: order.id,
        membershipId: membership.id,
        email,
        name: "Ada Lovelace",
      }),
    ]);
    const [ack, ...others] = await acknowledgementsTo(email);
    expect(others).toEqual([]);
    const { day, time } = receiptTime(now);
    expect(ack!.text).toContain(`We received your withdrawal from the contract on ${day} at ${time} (Amsterdam time).`);
    expect(ack!.text).toContain(`Your membership ended on ${day}.`);
    expect(ack!.text).toContain(`Fast Track order ${order.orderNumber}: €`);
    // The acknowledgement is the one word about the membership: no separate "cancelled" e-mail.
    const newMails = (await mailsTo(email)).slice(mailsBefore).map((mail) => mail.subject);
    expect(newMails.some((subject) => subject.includes("membership is cancelled"))).toBe(false);
  });

  it("after the first fee: refunds the fee's unused share to the minor unit, and the fast track", async () => {
    const { order, membership, email } = await paidFastTrack();
    const billed = await runBilling(db(), sandboxGateway, { now: addMinutes(membership.trialEndsAt, 1), origin });
    expect(billed.counts).toMatchObject({ charged: 1 });
    const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, membership.id));
    expect(invoice!.status).toBe("paid");
    // One day into the paid quarter, still within the withdrawal period.
    const now = new Date(invoice!.periodStart.getTime() + 86_400_000);
    await withdraw({ contractNumber: order.orderNumber, email }, { now });

    const length = invoice!.periodEnd.getTime() - invoice!.periodStart.getTime();
    const kept = Math.floor((invoice!.amount * 86_400_000) / length);
    const [feeRefund] = await db().select().from(refunds).where(eq(refunds.invoiceId, invoice!.id));
    expect(feeRefund!.amount).toBe(invoice!.amount - kept);
    expect(kept).toBeGreaterThan(0);
    expect((await refundsOfOrder(order.id)).map((refund) => refund.amount)).toEqual([order.amount]);
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toContain(
      `membership, ${formatMemberDay(invoice!.periodStart)} to ${formatMemberDay(invoice!.periodEnd)}: €`,
    );
  });

  it("once the flight day has come: ends the membership, and refunds nothing for the fast track", async () => {
    const { order, membership, email } = await paidFastTrack();
    const now = new Date();
    await db()
      .update(orders)
      .set({ flightDate: companyDay(now) })
      .where(eq(orders.id, order.id));
    await withdraw({ contractNumber: order.orderNumber, email }, { now });

    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect(await db().select().from(refunds)).toEqual([]);
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toContain("Your fast track's flight day had come");
    expect(ack!.text).toContain("Nothing was charged that is to be refunded.");
    expect((await allWithdrawals())[0]!.outcome).toBe("withdrawn");
  });

  it("after the period: changes nothing, and tells the consumer when it ended and how to cancel", async () => {
    const { order, membership, email } = await paidFastTrack();
    const now = addDays(new Date(), MEMBERSHIP_TERMS.changeOfMindDays + 1);
    const before = await rowCounts(db());
    await withdraw({ contractNumber: order.orderNumber, email }, { now });

    expect(await membershipById(membership.id)).toEqual(membership);
    const after = await rowCounts(db());
    expect(after).toEqual({ ...before, withdrawals: 1, outbox: before.outbox + 1 });
    expect((await allWithdrawals())[0]).toMatchObject({ outcome: "late", orderId: order.id });
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toMatch(/The withdrawal period for this contract ended on \d+ \w+ \d{4}/);
    expect(ack!.text).toContain(`${origin}/unsubscribe`);
  });

  it("details matching no contract, or a known number with another address: recorded, nothing else", async () => {
    const { order, membership, email } = await paidFastTrack();
    const before = await rowCounts(db());
    await withdraw({ contractNumber: "FT-123-NOSUCH", email: "stranger@example.org" });
    await withdraw({ contractNumber: order.orderNumber, email: "stranger@example.org" });
    await withdraw({ contractNumber: "FT-123-NOSUCH", email });

    expect(await rowCounts(db())).toEqual({ ...before, withdrawals: 3 });
    expect((await allWithdrawals()).map((row) => [row.outcome, row.orderId])).toEqual([
      ["unmatched", null],
      ["unmatched", null],
      ["unmatched", null],
    ]);
    expect(await mailsTo("stranger@example.org")).toEqual([]);
    expect(await acknowledgementsTo(email)).toEqual([]);
    expect(await membershipById(membership.id)).toEqual(membership);
  });

  it("the same confirmation sent again, even at once: one withdrawal, one refund, the first time of receipt", async () => {
    const { order, email } = await paidFastTrack();
    const idempotencyKey = randomUUID();
    const first = await withdraw({ contractNumber: order.orderNumber, email }, { idempotencyKey });
    const later = await withdraw(
      { contractNumber: order.orderNumber, email },
      { idempotencyKey, now: addMinutes(new Date(), 3) },
    );
    const together = await Promise.all(
      [1, 2].map(() => withdraw({ contractNumber: order.orderNumber, email }, { idempotencyKey })),
    );
    for (const answer of [later, ...together]) expect(answer.receivedAt).toEqual(first.receivedAt);
    expect(await allWithdrawals()).toHaveLength(1);
    expect(await refundsOfOrder(order.id)).toHaveLength(1);
    expect(await acknowledgementsTo(email)).toHaveLength(1);
  });

  it("never refunds more than was paid: an admin's earlier refund is taken off", async () => {
    const { order, email } = await paidFastTrack();
    const adminRefund = { amount: 1000, reason: "Geste commercial", idempotencyKey: randomUUID() };
    expect(
      await refundOrder(db(), sandboxGateway, { orderId: order.id, refund: adminRefund, actor: ADMIN }),
    ).toMatchObject({
      kind: "refunded",
    });
    await withdraw({ contractNumber: order.orderNumber, email });
    const amounts = (await refundsOfOrder(order.id)).map((refund) => refund.amount).sort((a, b) => a - b);
    expect(amounts).toEqual([1000, order.amount - 1000].sort((a, b) => a - b));
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toContain(`Fast Track order ${order.orderNumber}`);
  });

  it("an order refunded in full already: the membership ends, nothing more is refunded", async () => {
    const { order, membership, email } = await paidFastTrack();
    const full = { amount: order.amount, reason: "Vol annulé", idempotencyKey: randomUUID() };
    await refundOrder(db(), sandboxGateway, { orderId: order.id, refund: full, actor: ADMIN });
    await withdraw({ contractNumber: order.orderNumber, email });
    expect(await refundsOfOrder(order.id)).toHaveLength(1);
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect((await allWithdrawals())[0]!.outcome).toBe("withdrawn");
  });
});

describe(`withdrawing by membership number on ${testDatabaseKind()}`, () => {
  /** A trial started at the membership checkout: no order, the contract e-mail's time its start. */
  async function checkoutTrial(now: Date) {
    const email = `lotte-${randomUUID().slice(0, 8)}@example.com`;
    const outcome = await startMembershipCheckout(db(), sandboxGateway, {
      fullName: "Lotte de Wit",
      email,
      plan: "premium",
      currency: "EUR",
      card: CARD,
      checkoutKey: randomUUID(),
      origin,
      now,
    });
    if (outcome.kind !== "started") throw new Error(`no trial: ${outcome.kind}`);
    return { email, membership: await membershipById(outcome.membershipId) };
  }

  it("ends a checkout's membership, found by the number its contract e-mail gives, typed loosely", async () => {
    const started = new Date("2027-02-28T10:00:00Z");
    const { email, membership } = await checkoutTrial(started);
    const number = membershipNumber(membership.id);
    expect((await mailsTo(email))[0]!.text).toContain(`Membership number: ${number}`);
    const now = addDays(started, 1);
    await withdraw(
      { contractNumber: ` ${number.replaceAll("-", "").toLowerCase()} `, email, scope: "membership" },
      { now },
    );
    expect(await membershipById(membership.id)).toMatchObject({ status: "cancelled", endedAt: now });
    expect(await allWithdrawals()).toEqual([
      expect.objectContaining({ outcome: "withdrawn", orderId: null, membershipId: membership.id }),
    ]);
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toContain("Your membership ended on");
  });

  it("past 14 days from the contract e-mail is late; another address or number matches nothing", async () => {
    const started = new Date("2027-02-28T10:00:00Z");
    const { email, membership } = await checkoutTrial(started);
    const number = membershipNumber(membership.id);
    await withdraw({ contractNumber: number, email: "someone@example.com" }, { now: addDays(started, 1) });
    await withdraw({ contractNumber: "0000-0000-0000", email }, { now: addDays(started, 1) });
    await withdraw({ contractNumber: number, email }, { now: addDays(started, 15) });
    expect((await allWithdrawals()).map((row) => row.outcome).sort()).toEqual(["late", "unmatched", "unmatched"]);
    expect((await membershipById(membership.id)).status).toBe("trialing");
  });

  it("the membership number of a trial a fast track started names that order's contract", async () => {
    const { order, membership, email } = await paidFastTrack();
    await withdraw({ contractNumber: membershipNumber(membership.id), email, scope: "membership" });
    expect(await allWithdrawals()).toEqual([
      expect.objectContaining({ outcome: "withdrawn", orderId: order.id, membershipId: membership.id }),
    ]);
    expect((await membershipById(membership.id)).status).toBe("cancelled");
  });
});

describe(`the back office's withdrawals on ${testDatabaseKind()}`, () => {
  it("lists each withdrawal on its order's and its membership's page, and all of them newest first", async () => {
    const { order, membership, email } = await paidFastTrack();
    await withdraw({ contractNumber: "FT-9-TYPO", email }, { now: addMinutes(new Date(), 1) });
    await withdraw({ contractNumber: order.orderNumber, email }, { now: addMinutes(new Date(), 2) });
    const [ofOrder] = await withdrawalsOf(db(), { orderId: order.id });
    expect(ofOrder).toMatchObject({ outcome: "withdrawn", contractNumber: order.orderNumber, name: "Ada Lovelace" });
    expect(await withdrawalsOf(db(), { membershipId: membership.id })).toEqual([ofOrder]);
    const all = await listWithdrawals(db(), null, { outcome: null, search: null });
    expect(all.rows.map((row) => [row.outcome, row.orderNumber])).toEqual([
      ["withdrawn", order.orderNumber],
      ["unmatched", null],
    ]);
  });

  it("pages and filters them, so that junk never hides a genuine statement", async () => {
    const { order, email } = await paidFastTrack();
    const start = new Date();
    // 30 junk statements after a genuine unmatched one (a typing mistake) and the withdrawal itself.
    await withdraw({ contractNumber: "FT-1-TYPO", email, fullName: "Ada Lovelace" }, { now: start });
    await withdraw({ contractNumber: order.orderNumber, email }, { now: addMinutes(start, 1) });
    for (let index = 0; index < 30; index++) {
      await withdraw(
        { contractNumber: `JUNK-${index}`, email: `junk${index}@example.net`, fullName: "Junk Sender" },
        { now: addMinutes(start, 2 + index / 100) },
      );
    }
    const first = await listWithdrawals(db(), null, { outcome: null, search: null });
    expect(first.rows).toHaveLength(25);
    expect(first.previous).toBeNull();
    const second = await listWithdrawals(db(), { after: first.next! }, { outcome: null, search: null });
    expect(second.rows.map((row) => row.contractNumber)).toEqual([
      "JUNK-4",
      "JUNK-3",
      "JUNK-2",
      "JUNK-1",
      "JUNK-0",
      order.orderNumber,
      "FT-1-TYPO",
    ]);
    expect(second.next).toBeNull();

    const genuine = await listWithdrawals(db(), null, { outcome: "unmatched", search: "lovelace" });
    expect(genuine.rows.map((row) => row.contractNumber)).toEqual(["FT-1-TYPO"]);
    const withdrawn = await listWithdrawals(db(), null, { outcome: "withdrawn", search: null });
    expect(withdrawn.rows.map((row) => row.orderNumber)).toEqual([order.orderNumber]);
    // A LIKE wildcard typed in the search matches itself only.
    expect((await listWithdrawals(db(), null, { outcome: null, search: "junk_1" })).rows).toEqual([]);
  });

  it(`keeps at most ${UNMATCHED_STATEMENTS_PER_HOUR} unmatched statements an hour, counting the rest for the back office, and answers each alike`, async () => {
    const { order, email } = await paidFastTrack();
    const now = new Date();
    await db()
      .insert(withdrawals)
      .values(
        Array.from({ length: UNMATCHED_STATEMENTS_PER_HOUR }, (_, index) => ({
          name: "Junk Sender",
          contractNumber: `JUNK-${index}`,
          email: `junk${index}@example.net`,
          outcome: "unmatched" as const,
          scope: "both" as const,
          idempotencyKey: randomUUID(),
          receivedAt: addMinutes(now, -30),
        })),
      );
    const over = await withdraw({ contractNumber: "JUNK-X", email: "junkx@example.net" }, { now });
    expect(over).toEqual({ receivedAt: now });
    expect(await db().select().from(withdrawals).where(eq(withdrawals.contractNumber, "JUNK-X"))).toEqual([]);
    expect(await recentOverflow(db(), now)).toMatchObject([{ count: 1 }]);
    // A statement that matches a contract is still taken.
    await withdraw({ contractNumber: order.orderNumber, email }, { now });
    expect(await db().select().from(withdrawals).where(eq(withdrawals.orderId, order.id))).toHaveLength(1);
  });
});

describe(`withdrawals in data requests on ${testDatabaseKind()}`, () => {
  it("exports an address's withdrawals; erasure deletes the unmatched and keeps the matched without name or address", async () => {
    const { order, email } = await paidFastTrack();
    await withdraw({ contractNumber: "FT-9-TYPO", email: email.toUpperCase() });
    await withdraw({ contractNumber: order.orderNumber, email });
    const data = await findPersonalData(db(), email);
    expect(data.withdrawals.map((row) => [row.contractNumber, row.outcome, row.name])).toEqual([
      ["FT-9-TYPO", "unmatched", "Ada Lovelace"],
      [order.orderNumber, "withdrawn", "Ada Lovelace"],
    ]);
    expect(personalDataCounts(data)).toMatchObject({ withdrawals: 2 });

    const erased = await erasePersonalData(db(), email, { actor: ADMIN, origin });
    expect(erased).toMatchObject({ erased: true, counts: { withdrawalsDeleted: 1, withdrawalsAnonymised: 1 } });
    expect(await allWithdrawals()).toEqual([
      expect.objectContaining({ outcome: "withdrawn", orderId: order.id, name: "Client anonymisé", email: "" }),
    ]);
    expect((await findPersonalData(db(), email)).withdrawals).toEqual([]);
  });
});

describe(`what a withdrawal is about, and when it fails halfway, on ${testDatabaseKind()}`, () => {
  it("withdraws from the membership only: the fast track stays booked and paid", async () => {
    const { order, membership, email } = await paidFastTrack();
    await withdraw({ contractNumber: order.orderNumber, email, scope: "membership" });
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect(await refundsOfOrder(order.id)).toEqual([]);
    const [kept] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(kept!.status).toBe("paid");
    expect((await allWithdrawals())[0]).toMatchObject({ outcome: "withdrawn", scope: "membership" });
  });

  it("withdraws from the fast track only: the membership runs on", async () => {
    const { order, membership, email } = await paidFastTrack();
    await withdraw({ contractNumber: order.orderNumber, email, scope: "fast-track" });
    expect((await membershipById(membership.id)).status).toBe("trialing");
    expect((await refundsOfOrder(order.id)).map((refund) => refund.amount)).toEqual([order.amount]);
  });

  it("keeps a statement whose refund failed, says the refund follows, and makes it once when sent again", async () => {
    const { order, membership, email } = await paidFastTrack();
    const failing: PaymentGateway = {
      ...sandboxGateway,
      refund: () => Promise.reject(new Error("the gateway is down")),
    };
    const idempotencyKey = randomUUID();
    const details = { fullName: "Ada Lovelace", contractNumber: order.orderNumber, email, scope: "both" as const };
    const first = await recordWithdrawal(db(), failing, { details, idempotencyKey, origin });
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect(await allWithdrawals()).toEqual([expect.objectContaining({ outcome: "withdrawn" })]);
    // Asked for, not confirmed: the refund waits, counted against what may still be refunded.
    expect(await refundsOfOrder(order.id)).toMatchObject([
      { amount: order.amount, status: "pending", providerRef: null },
    ]);
    const [ack] = await acknowledgementsTo(email);
    expect(ack!.text).toContain("We could not make your refund at once.");

    const again = await recordWithdrawal(db(), sandboxGateway, { details, idempotencyKey, origin });
    expect(again.receivedAt).toEqual(first.receivedAt);
    await recordWithdrawal(db(), sandboxGateway, { details, idempotencyKey, origin });
    expect(await refundsOfOrder(order.id)).toMatchObject([{ amount: order.amount, status: "done" }]);
    expect(await allWithdrawals()).toHaveLength(1);
    expect(await acknowledgementsTo(email)).toHaveLength(1);
  });

  it("takes a statement until the end of the period's last day in Amsterdam, not a moment after", async () => {
    const inTime = await paidFastTrack();
    const paidAt = (await firstPaidAt(inTime.order.id))!;
    await withdraw(
      { contractNumber: inTime.order.orderNumber, email: inTime.email },
      { now: lastDayToWithdraw(paidAt) },
    );
    const late = await paidFastTrack();
    await withdraw(
      { contractNumber: late.order.orderNumber, email: late.email },
      { now: withdrawalPeriodEnd((await firstPaidAt(late.order.id))!) },
    );
    const outcomes = Object.fromEntries((await allWithdrawals()).map((row) => [row.orderId, row.outcome]));
    expect(outcomes).toEqual({ [inTime.order.id]: "withdrawn", [late.order.id]: "late" });
    expect(companyDay(lastDayToWithdraw(paidAt))).toBe(companyDay(addDays(paidAt, MEMBERSHIP_TERMS.changeOfMindDays)));
  });
});

async function firstPaidAt(orderId: string) {
  const [paid] = await db()
    .select({ at: min(orderEvents.createdAt) })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, "paid")));
  return paid?.at ?? null;
}

describe(`the /withdraw page's action on ${testDatabaseKind()}`, () => {
  async function post(fields: Record<string, string>) {
    return routeResult(() => withdrawAction(routeArgs(formRequest("/withdraw", fields))));
  }

  it("reviews the details with a fresh key, then answers a match and a stranger alike", async () => {
    const { order, membership, email } = await paidFastTrack();
    const answers = [];
    for (const details of [
      { fullName: "Ada Lovelace", contractNumber: order.orderNumber, email, scope: "both" },
      { fullName: "Ada Lovelace", contractNumber: "FT-1-NOSUCH", email, scope: "both" },
    ]) {
      const review = await post({ ...details, intent: "review", website: "" });
      expect(review.status).toBe(200);
      const step = review.data as WithdrawalStep;
      if (step.step !== "review") throw new Error(`expected the review step, got ${step.step}`);
      expect(step.details).toEqual(details);
      const confirmed = await post({ ...details, intent: "confirm", idempotencyKey: step.idempotencyKey });
      answers.push(confirmed);
    }
    const [matched, stranger] = answers;
    expect(matched!.status).toBe(stranger!.status);
    expect(matched!.status).toBe(200);
    expect(Object.keys(matched!.data as object).sort()).toEqual(Object.keys(stranger!.data as object).sort());
    expect((matched!.data as WithdrawalStep).step).toBe("received");
    expect((await membershipById(membership.id)).status).toBe("cancelled");
    expect(
      await db()
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.outcome, "unmatched"), eq(withdrawals.contractNumber, "FT-1-NOSUCH"))),
    ).toHaveLength(1);
  });

  it("refuses missing details and a confirmation without its key, recording nothing", async () => {
    const missing = await post({ fullName: " ", contractNumber: "", email: "nope", intent: "review" });
    expect(missing.status).toBe(400);
    const noKey = await post({
      fullName: "Ada",
      contractNumber: "FT-1-X",
      email: "ada@example.org",
      scope: "membership",
      intent: "confirm",
    });
    expect(noKey.status).toBe(400);
    expect(await allWithdrawals()).toEqual([]);
  });
});
