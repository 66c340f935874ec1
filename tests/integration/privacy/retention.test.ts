import { addDays, addMinutes, subDays, subHours, subMinutes, subYears } from "date-fns";
import { eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installDatabase, openDatabase, type Database } from "~/db/client.server";
import {
  contactMessages,
  customers,
  membershipEvents,
  memberships,
  orderEvents,
  orders,
  payments,
  rateLimit,
  unsubscribeRequests,
  withdrawals,
} from "~/db/schema";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { payForOrder } from "~/features/booking/checkout.server";
import type { PaymentGateway } from "~/features/payments/gateway";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { ANONYMISED_CUSTOMER_NAME, deleteUnpaidOrders } from "~/features/privacy/customer-removal.server";
import {
  NO_RETENTION_COUNTS,
  RETENTION_LOCK_ID,
  runRetention,
  type RetentionCounts,
} from "~/features/privacy/retention-job.server";
import { emptyBookingTables } from "../../support/integration/booking-helpers";
import { insertOrder } from "../../support/integration/orders-fixtures";
import {
  book,
  endMembershipAt,
  insertContactMessage,
  insertUnsubscribeRequest,
  membershipOf,
} from "../../support/integration/personal-data-fixtures";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";
import PrivacyPage from "~/routes/privacy";

const kind = testDatabaseKind();
/** The job's clock: a fixed instant, far from the database's own now(). */
const now = new Date("2031-05-20T10:00:00Z");

const NOTHING = NO_RETENTION_COUNTS;

let handle: TestDatabase;
const db = (): Database => handle.db;

beforeAll(async () => {
  handle = await openTestDatabase();
  // The process's database, as on a server: the sandbox keeps its card charges' answers there.
  installDatabase(handle);
});

afterAll(async () => {
  installDatabase(undefined);
  await handle.destroy();
});

beforeEach(async () => {
  await emptyBookingTables(db());
  await db().execute(sql`truncate contact_messages, unsubscribe_requests, rate_limit`);
});

async function run(options: { dryRun?: boolean } = {}) {
  const outcome = await runRetention(db(), { now, ...options });
  if (!outcome.ran) throw new Error("the retention run did not take its lock");
  return outcome.counts;
}

async function exists(table: typeof orders | typeof customers, id: string) {
  return (await db().select({ id: table.id }).from(table).where(eq(table.id, id))).length === 1;
}

async function customerOf(order: { customerId: string }) {
  const [customer] = await db().select().from(customers).where(eq(customers.id, order.customerId));
  return customer;
}

/** Everything the job may touch, to compare before and after. */
async function snapshot() {
  return {
    customers: await db().select().from(customers).orderBy(customers.id),
    orders: await db().select().from(orders).orderBy(orders.id),
    orderEvents: await db().select().from(orderEvents).orderBy(orderEvents.id),
    payments: await db().select().from(payments).orderBy(payments.id),
    memberships: await db().select().from(memberships).orderBy(memberships.id),
    membershipEvents: await db().select().from(membershipEvents).orderBy(membershipEvents.id),
    contactMessages: await db().select().from(contactMessages).orderBy(contactMessages.id),
    unsubscribeRequests: await db().select().from(unsubscribeRequests).orderBy(unsubscribeRequests.id),
    withdrawals: await db().select().from(withdrawals).orderBy(withdrawals.id),
    rateLimitCounters: await db().select().from(rateLimit).orderBy(rateLimit.id),
  };
}

describe(`the 48-hour rule for unpaid orders on ${kind}`, () => {
  it("keeps an unpaid order of 47 hours and deletes one of 49 hours with its history, declined attempts and customer", async () => {
    const young = await book(db(), { createdAt: subHours(now, 47) });
    const old = await book(db(), { pay: "declined", createdAt: subHours(now, 49) });
    expect(old.status).toBe("not_paid");

    expect(await run()).toEqual({
      ...NOTHING,
      unpaidOrders: 1,
      orderEvents: 1,
      paymentAttempts: 1,
      customersDeleted: 1,
    });
    expect(await exists(orders, old.id)).toBe(false);
    expect(await exists(customers, old.customerId)).toBe(false);
    expect(await db().select().from(payments)).toEqual([]);
    expect(await exists(orders, young.id)).toBe(true);
    expect((await customerOf(young))?.notes).toContain(`Email: ${(await customerOf(young))?.email}`);
  });

  it("keeps the customer row while the customer has another order", async () => {
    const old = await book(db(), { createdAt: subHours(now, 49) });
    const other = await insertOrder(db(), {
      customerId: old.customerId,
      amount: 2200,
      status: "paid",
      createdAt: subDays(now, 3),
    });

    expect(await run()).toEqual({ ...NOTHING, unpaidOrders: 1, orderEvents: 1 });
    expect(await exists(orders, other.id)).toBe(true);
    expect((await customerOf(old))?.fullName).toBe("Ann Lee");
  });

  it("never deletes an order that was paid, completed, refunded or cancelled, however old", async () => {
    const paid = await book(db(), { pay: "paid", createdAt: subHours(now, 49) });
    const completed = await book(db(), { pay: "paid" });
    await changeOrderStatus(db(), { orderId: completed.id, to: "completed", actor: CUSTOMER_ACTOR });
    const refunded = await book(db(), { pay: "paid" });
    await changeOrderStatus(db(), { orderId: refunded.id, to: "refunded", actor: CUSTOMER_ACTOR });
    const cancelled = await book(db());
    await changeOrderStatus(db(), { orderId: cancelled.id, to: "cancelled", actor: CUSTOMER_ACTOR });
    for (const order of [completed, refunded, cancelled]) {
      await db()
        .update(orders)
        .set({ createdAt: subDays(now, 30), updatedAt: subDays(now, 30) })
        .where(eq(orders.id, order.id));
    }
    const before = await snapshot();

    expect(await run()).toEqual(NOTHING);
    expect(await snapshot()).toEqual(before);
    expect(before.orders.map((order) => order.id).sort()).toEqual(
      [paid, completed, refunded, cancelled].map((order) => order.id).sort(),
    );
  });
});

describe(`the 6-year rule for customer data on ${kind}`, () => {
  it("anonymises a customer whose last order and membership ended over 6 years ago, keeping the order, its payment and the membership", async () => {
    const paidAt = subYears(subDays(now, 10), 6);
    const expired = await book(db(), { pay: "paid", createdAt: paidAt });
    await endMembershipAt(db(), expired.id, addDays(paidAt, 2));
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, expired.id));

    expect(await run()).toEqual({ ...NOTHING, customersAnonymised: 1 });
    expect(await customerOf(expired)).toMatchObject({
      fullName: ANONYMISED_CUSTOMER_NAME,
      notes: null,
      userId: null,
    });
    const [order] = await db().select().from(orders).where(eq(orders.id, expired.id));
    expect(order).toMatchObject({ amount: expired.amount, currency: "EUR", status: "paid" });
    expect(await db().select().from(payments).where(eq(payments.orderId, expired.id))).toEqual([payment]);
    expect(await membershipOf(db(), expired.id)).toMatchObject({
      customerId: expired.customerId,
      email: null,
      status: "cancelled",
      cardLast4: "4242",
    });

    expect(await run()).toEqual(NOTHING);
  });

  it("keeps a member's data while the membership is live and for 6 years after it ended, however old the order", async () => {
    const paidAt = subYears(now, 9);
    const live = await book(db(), { email: "live@example.com", pay: "paid", createdAt: paidAt });
    const endedRecently = await book(db(), { email: "recent@example.com", pay: "paid", createdAt: paidAt });
    await endMembershipAt(db(), endedRecently.id, subYears(addMinutes(now, 1), 6));
    const endedLongAgo = await book(db(), { email: "long-ago@example.com", pay: "paid", createdAt: paidAt });
    await endMembershipAt(db(), endedLongAgo.id, subYears(subMinutes(now, 1), 6));
    expect((await membershipOf(db(), live.id)).status).toBe("trialing");

    expect(await run()).toEqual({ ...NOTHING, customersAnonymised: 1 });
    for (const [order, email] of [
      [live, "live@example.com"],
      [endedRecently, "recent@example.com"],
    ] as const) {
      expect((await customerOf(order))?.fullName).toBe("Ann Lee");
      expect((await membershipOf(db(), order.id)).email).toBe(email);
    }
    expect((await customerOf(endedLongAgo))?.fullName).toBe(ANONYMISED_CUSTOMER_NAME);
    expect((await membershipOf(db(), endedLongAgo.id)).email).toBeNull();
  });

  it("deletes an unpaid order a membership points to, and keeps the membership's customer, anonymised later", async () => {
    // Not a state the site makes (a trial starts with a paid order), but the rules must still hold.
    const paid = await book(db(), { pay: "paid", createdAt: subYears(now, 7) });
    const unpaid = await book(db(), { createdAt: subYears(now, 7) });
    const membership = await membershipOf(db(), paid.id);
    await endMembershipAt(db(), paid.id, subYears(now, 7));
    await db()
      .update(memberships)
      .set({ customerId: unpaid.customerId, orderId: unpaid.id })
      .where(eq(memberships.id, membership.id));

    expect(await run()).toMatchObject({ unpaidOrders: 1, customersDeleted: 0, customersAnonymised: 2 });
    expect(await exists(orders, unpaid.id)).toBe(false);
    const [kept] = await db().select().from(memberships).where(eq(memberships.id, membership.id));
    expect(kept).toMatchObject({ orderId: null, customerId: unpaid.customerId, email: null });
    expect(await customerOf(unpaid)).toMatchObject({ fullName: ANONYMISED_CUSTOMER_NAME, notes: null });
  });

  it("counts from the order's last change and keeps customers within 6 years", async () => {
    const recent = await book(db(), { pay: "paid", createdAt: subYears(addMinutes(now, 1), 6) });
    const refundedLater = await book(db(), { pay: "paid", createdAt: subYears(now, 8) });
    await db()
      .update(orders)
      .set({ status: "refunded", updatedAt: subYears(now, 5) })
      .where(eq(orders.id, refundedLater.id));

    expect(await run()).toEqual(NOTHING);
    expect((await customerOf(recent))?.fullName).toBe("Ann Lee");
    expect((await customerOf(refundedLater))?.fullName).toBe("Ann Lee");
  });

  it("deletes a customer left with no order after 6 years", async () => {
    const [orphan] = await db()
      .insert(customers)
      .values({ fullName: "Ann Lee", notes: "Email: ann@example.com", createdAt: subYears(subDays(now, 1), 6) })
      .returning();

    expect(await run()).toEqual({ ...NOTHING, customersDeleted: 1 });
    expect(await exists(customers, orphan!.id)).toBe(false);
  });
});

describe(`contact messages and unsubscribe requests on ${kind}`, () => {
  it("deletes those older than their retention period and keeps the others", async () => {
    const [oldMessage, newMessage] = [
      await insertContactMessage(db(), { createdAt: subMinutes(subYears(now, 2), 1) }),
      await insertContactMessage(db(), { createdAt: addMinutes(subYears(now, 2), 1) }),
    ];
    const [oldRequest, newRequest] = [
      await insertUnsubscribeRequest(db(), { createdAt: subMinutes(subYears(now, 2), 1) }),
      await insertUnsubscribeRequest(db(), { createdAt: addMinutes(subYears(now, 2), 1) }),
    ];

    expect(await run()).toEqual({ ...NOTHING, contactMessages: 1, unsubscribeRequests: 1 });
    expect((await db().select().from(contactMessages)).map((row) => row.id)).toEqual([newMessage.id]);
    expect((await db().select().from(unsubscribeRequests)).map((row) => row.id)).toEqual([newRequest.id]);
    expect([oldMessage.id, oldRequest.id]).not.toContain(newMessage.id);
  });

  it("deletes withdrawal statements kept past the customer-data period, and keeps the others", async () => {
    await insertWithdrawal(subMinutes(subYears(now, 6), 1));
    const recent = await insertWithdrawal(addMinutes(subYears(now, 6), 1));
    expect(await run()).toEqual({ ...NOTHING, withdrawals: 1 });
    expect((await db().select().from(withdrawals)).map((row) => row.id)).toEqual([recent.id]);
  });
});

/** A statement made through the withdrawal function at `receivedAt` that matched nothing. */
async function insertWithdrawal(receivedAt: Date) {
  const [row] = await db()
    .insert(withdrawals)
    .values({
      name: "Ann Lee",
      contractNumber: "FT-1",
      email: "ann@example.com",
      outcome: "unmatched",
      scope: "both",
      idempotencyKey: crypto.randomUUID(),
      receivedAt,
    })
    .returning();
  return row!;
}

async function mixOfExpiredData() {
  await book(db(), { pay: "declined", createdAt: subHours(now, 50) });
  await book(db(), { createdAt: subHours(now, 72) });
  await book(db(), { createdAt: subHours(now, 1) });
  const expired = await book(db(), { pay: "paid", createdAt: subYears(now, 7) });
  await endMembershipAt(db(), expired.id, addDays(subYears(now, 7), 2));
  await insertContactMessage(db(), { createdAt: subYears(now, 3) });
  await insertUnsubscribeRequest(db(), { createdAt: subYears(now, 3) });
  await insertRateLimitCounter("192.0.2.1", subHours(now, 30));
  await insertWithdrawal(subYears(now, 7));
}

/** A rate-limit counter of `address` whose last request was at `lastRequest`. */
async function insertRateLimitCounter(address: string, lastRequest: Date) {
  await db()
    .insert(rateLimit)
    .values({ id: crypto.randomUUID(), key: `tier:payment:${address}`, count: 3, lastRequest: lastRequest.getTime() });
}

const EXPECTED_FOR_THE_MIX: RetentionCounts = {
  unpaidOrders: 2,
  orderEvents: 2,
  paymentAttempts: 1,
  customersDeleted: 2,
  customersAnonymised: 1,
  contactMessages: 1,
  unsubscribeRequests: 1,
  withdrawals: 1,
  rateLimitCounters: 1,
};

describe(`a dry run on ${kind}`, () => {
  it("changes nothing and reports what a real run then removes", async () => {
    await mixOfExpiredData();
    const before = await snapshot();

    expect(await runRetention(db(), { now, dryRun: true })).toEqual({
      ran: true,
      dryRun: true,
      counts: EXPECTED_FOR_THE_MIX,
    });
    expect(await snapshot()).toEqual(before);
    expect(await runRetention(db(), { now })).toEqual({ ran: true, dryRun: false, counts: EXPECTED_FOR_THE_MIX });
    expect(await run({ dryRun: true })).toEqual(NOTHING);
  });
});

/** The counts of several outcomes added up. */
function total(outcomes: Awaited<ReturnType<typeof runRetention>>[]) {
  const sum = { ...NOTHING };
  for (const outcome of outcomes) {
    if (!outcome.ran) continue;
    for (const key of Object.keys(sum) as (keyof RetentionCounts)[]) sum[key] += outcome.counts[key];
  }
  return sum;
}

describe(`concurrent runs on ${kind}`, () => {
  it("two runs at once remove everything once between them, and neither fails", async () => {
    await mixOfExpiredData();
    const second = kind === "postgres" ? await openDatabase({ kind: "postgres", url: handle.url! }) : handle;
    try {
      const outcomes = await Promise.all([runRetention(db(), { now }), runRetention(second.db, { now })]);
      expect(total(outcomes)).toEqual(EXPECTED_FOR_THE_MIX);
      expect(await run()).toEqual(NOTHING);
    } finally {
      if (second !== handle) await second.close();
    }
  });

  it.runIf(kind === "postgres")("a run gives up while another holds the lock", async () => {
    await mixOfExpiredData();
    const other = await openDatabase({ kind: "postgres", url: handle.url! });
    try {
      await other.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${RETENTION_LOCK_ID})`);
        expect(await runRetention(db(), { now })).toEqual({ ran: false });
      });
      expect((await runRetention(db(), { now })).ran).toBe(true);
    } finally {
      await other.close();
    }
  });

  it.runIf(kind === "postgres")("skips an unpaid order that a payment holds locked", async () => {
    const order = await book(db(), { createdAt: subHours(now, 49) });
    const payment = await openDatabase({ kind: "postgres", url: handle.url! });
    try {
      await payment.db.transaction(async (tx) => {
        await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
        expect(await run()).toEqual(NOTHING);
      });
      expect(await exists(orders, order.id)).toBe(true);
      expect(await run()).toMatchObject({ unpaidOrders: 1 });
    } finally {
      await payment.close();
    }
  });
  it.runIf(kind === "postgres")("a payment waiting on an order the job deletes charges nothing", async () => {
    const order = await book(db(), { createdAt: subHours(now, 49) });
    const job = await openDatabase({ kind: "postgres", url: handle.url! });
    const charges: string[] = [];
    const gateway: PaymentGateway = {
      ...sandboxGateway,
      charge: (request) => {
        charges.push(request.orderId);
        return sandboxGateway.charge(request);
      },
    };
    try {
      let payment: ReturnType<typeof payForOrder> | undefined;
      await job.db.transaction(async (tx) => {
        await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
        payment = payForOrder(db(), gateway, {
          orderId: order.id,
          card: { number: "4242424242424242", expiryMonth: 12, expiryYear: now.getFullYear() + 2, cvv: "123" },
          origin: "https://site.test",
          consentedAt: new Date(),
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await deleteUnpaidOrders(tx, [order.id]);
      });
      expect(await payment).toEqual({ kind: "not-found" });
      expect(charges).toEqual([]);
    } finally {
      await job.close();
    }
  });
});

/** The privacy page as a visitor reads it, without its markup. */
function privacyPageText() {
  const html = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(PrivacyPage)));
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replaceAll("&#x27;", "'");
}

/** The number in "within 48 hours", "for one year": what the page promises. */
function statedPeriod(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (!match) throw new Error(`The privacy page no longer says ${pattern}`);
  return match[1] === "one" ? 1 : Number(match[1]);
}

describe(`the privacy page and the job on ${kind}`, () => {
  it("remove data exactly when the page says it goes", async () => {
    const text = privacyPageText();
    const unpaidHours = statedPeriod(
      text,
      /Unpaid applications A booking that has not been paid is deleted within (\w+) hours?/,
    );
    const customerYears = statedPeriod(text, /kept for (\w+) years? after your last order/);
    const messageYears = statedPeriod(text, /Contact messages Kept for (\w+) years?/);
    const unsubscribeYears = statedPeriod(text, /Unsubscribe requests Kept for (\w+) years?/);
    const counterHours = statedPeriod(text, /Security data .* for at most (\w+) hours? after your last request/);

    const justPast = (moment: Date) => subMinutes(moment, 1);
    const justWithin = (moment: Date) => addMinutes(moment, 1);
    const unpaidLimit = subHours(now, unpaidHours);
    const customerLimit = subYears(now, customerYears);
    const messageLimit = subYears(now, messageYears);
    const unsubscribeLimit = subYears(now, unsubscribeYears);

    const kept = [
      await book(db(), { createdAt: justWithin(unpaidLimit) }),
      await book(db(), { pay: "paid", createdAt: justWithin(customerLimit) }),
    ];
    await book(db(), { createdAt: justPast(unpaidLimit) });
    const anonymised = await book(db(), { pay: "paid", createdAt: justPast(customerLimit) });
    // The trial its payment started ended then too: a member's data stays while they are one.
    await db()
      .update(memberships)
      .set({ status: "cancelled", endedAt: justPast(customerLimit) })
      .where(eq(memberships.customerId, anonymised.customerId));
    for (const [insert, limit] of [
      [insertContactMessage, messageLimit],
      [insertUnsubscribeRequest, unsubscribeLimit],
    ] as const) {
      await insert(db(), { createdAt: justWithin(limit) });
      await insert(db(), { createdAt: justPast(limit) });
    }
    await insertRateLimitCounter("192.0.2.2", justWithin(subHours(now, counterHours)));
    await insertRateLimitCounter("192.0.2.3", justPast(subHours(now, counterHours)));

    expect(await run()).toMatchObject({
      unpaidOrders: 1,
      customersDeleted: 1,
      customersAnonymised: 1,
      contactMessages: 1,
      unsubscribeRequests: 1,
      rateLimitCounters: 1,
    });
    expect((await db().select({ key: rateLimit.key }).from(rateLimit)).map((row) => row.key)).toEqual([
      "tier:payment:192.0.2.2",
    ]);
    for (const order of kept) expect((await customerOf(order))?.fullName).toBe("Ann Lee");
    expect((await customerOf(anonymised))?.fullName).toBe(ANONYMISED_CUSTOMER_NAME);
  });
});
