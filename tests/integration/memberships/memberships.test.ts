import { setTimeout as sleep } from "node:timers/promises";
import { randomUUID } from "node:crypto";
import { addDays, addHours, addMilliseconds, addMinutes, max } from "date-fns";
import { asc, eq, sql } from "drizzle-orm";
import { companyDaysLater, companyMonthsLater } from "~/lib/company-time";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installDatabase, openDatabase, type Database } from "~/db/client.server";
import { invoices, membershipEvents, memberships, orders, outbox, refunds } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import {
  CHARGING_LEASE_MS,
  NO_BILLING_COUNTS,
  runBilling,
  runBillingAndLog,
  type BillingCounts,
} from "~/features/memberships/billing-job.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import type {
  CardFormGateway,
  ChargeRequest,
  RefundRequest,
  SavedCardChargeRequest,
} from "~/features/payments/gateway";
import { processMetrics } from "~/platform/observability/metrics.server";
import { createSandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { CUSTOMER_ACTOR, type Actor } from "~/lib/actor";
import { siteOrigin } from "~/lib/site-origin.server";
import { siteConfig } from "../../../site.config";
import { accountLinkOf } from "../../support/integration/account-link";
import { bookingInput, emptyBookingTables, rowCounts } from "../../support/integration/booking-helpers";
import { rowLockIsFree } from "../../support/integration/row-lock";
import { growth, sampleValue } from "../../support/metrics-text";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";
import { composeQueuedMails } from "../../support/integration/outbox-compose";

const kind = testDatabaseKind();
const origin = "https://site.test";
const ADMIN: Actor = { userId: null, label: "admin@example.org" };
const GOOD_CARD = "4242424242424242";
/** Pays the fast track; its saved card then declines every renewal. */
const ALWAYS_DECLINES = "4999990000000346";
/** Pays the fast track; its saved card declines the first renewal attempt, then pays. */
const DECLINES_ONCE = "4999990000003050";
const NOTHING = NO_BILLING_COUNTS;

let handle: TestDatabase;
const db = (): Database => handle.db;

beforeAll(async () => {
  handle = await openTestDatabase();
  installDatabase(handle);
});

afterAll(async () => {
  installDatabase(undefined);
  await handle.destroy();
});

/** The sandbox, noting every request it gets. */
function watchedSandbox() {
  const sandbox = createSandboxGateway();
  const calls = {
    charges: [] as ChargeRequest[],
    renewals: [] as SavedCardChargeRequest[],
    refunds: [] as RefundRequest[],
  };
  const gateway: CardFormGateway = {
    name: sandbox.name,
    kind: "card-form",
    charge: (request) => {
      calls.charges.push(request);
      return sandbox.charge(request);
    },
    chargeSaved: async (request) => {
      calls.renewals.push(request);
      // A gateway takes a while to answer: time for a second job to try the same invoice.
      await sleep(5);
      return sandbox.chargeSaved(request);
    },
    refund: (request) => {
      calls.refunds.push(request);
      return sandbox.refund(request);
    },
    saveCard: (request) => sandbox.saveCard(request),
  };
  return { gateway, calls };
}

let sandbox: ReturnType<typeof watchedSandbox>;

/** `gateway`, except that its renewals never answer (a network failure), noting the keys they carried. */
function unanswering(gateway: CardFormGateway) {
  const unanswered: string[] = [];
  const down: CardFormGateway = {
    ...gateway,
    chargeSaved: async (request) => {
      unanswered.push(request.idempotencyKey);
      throw new Error("connect ETIMEDOUT");
    },
  };
  return { gateway: down, unanswered };
}

beforeEach(async () => {
  await emptyBookingTables(db());
  sandbox = watchedSandbox();
});

/** Books a fast track for `email` and pays it by `cardNumber`, the real way. */
async function payFastTrack(email: string, cardNumber = GOOD_CARD) {
  const { orderId } = await createBooking(db(), { booking: bookingInput({ email }), currency: "EUR", userId: null });
  const card = { number: cardNumber, expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };
  expect(await payForOrder(db(), sandbox.gateway, { orderId, card, origin, consentedAt: new Date() })).toEqual({
    kind: "paid",
    alreadyPaid: false,
  });
  return orderId;
}

async function membershipOf(email: string) {
  const [membership] = await db().select().from(memberships).where(eq(memberships.email, email));
  return membership!;
}

/** A member in the trial that paying a first fast track starts. */
async function newMember(email: string, cardNumber = GOOD_CARD) {
  await payFastTrack(email, cardNumber);
  return membershipOf(email);
}

async function bill(now: Date, gateway = sandbox.gateway, database = db()) {
  const outcome = await runBilling(database, gateway, { now, origin });
  expect(outcome.ran, "the run took its lock").toBe(true);
  return outcome.counts;
}

/**
 * A billing run at `now` that dies after the gateway charged: the database refuses the history of
 * a paid fee while it runs.
 */
async function billingDiesAfterCharging(now: Date, gateway: CardFormGateway) {
  await db().execute(sql`
    create function refuse_paid_fee() returns trigger language plpgsql as $$
      begin raise exception 'history refused'; end $$`);
  await db().execute(sql`
    create trigger refuse_paid_fee before insert on membership_events
      for each row when (new.note like 'Cotisation payée%') execute function refuse_paid_fee()`);
  try {
    await expect(runBilling(db(), gateway, { now, origin })).rejects.toThrow();
  } finally {
    await db().execute(sql`drop trigger refuse_paid_fee on membership_events`);
    await db().execute(sql`drop function refuse_paid_fee()`);
  }
}

const counts = (some: Partial<BillingCounts>): BillingCounts => ({ ...NOTHING, ...some });

async function invoicesOf(membershipId: string) {
  return db().select().from(invoices).where(eq(invoices.membershipId, membershipId)).orderBy(asc(invoices.periodStart));
}

async function historyOf(membershipId: string) {
  const events = await db()
    .select()
    .from(membershipEvents)
    .where(eq(membershipEvents.membershipId, membershipId))
    .orderBy(asc(membershipEvents.createdAt));
  return events.map((event) => `${event.fromStatus ?? "new"} -> ${event.toStatus} (${event.actorLabel})`);
}

/** The mails queued for `email`, composed as the outbox worker composes them before sending. */
async function mailsTo(email: string) {
  await composeQueuedMails(db());
  return db()
    .select({ subject: outbox.subject, text: outbox.textBody, html: outbox.htmlBody })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(asc(outbox.createdAt));
}

/** The subjects of the membership's e-mails, without the fast track's confirmation. */
async function memberMailSubjects(email: string) {
  return (await mailsTo(email)).map((mail) => mail.subject).filter((subject) => !subject.includes("Fast Track"));
}

const brand = siteConfig.company.name;
const SUBJECTS = {
  trialStarted: `Your 3-day free trial of ${brand} Medium has started`,
  firstChargeComing: (day: Date) => `Your free trial ends on ${formatMemberDay(day)}: first charge of €49`,
  receipt: `Receipt: €49 for your ${brand} Medium membership`,
  paymentFailed: `Payment reminder: we could not charge €49 for your ${brand} membership`,
  cancelled: `Your ${brand} membership is cancelled`,
  ended: `Your ${brand} membership has ended`,
};

describe(`enrolment on ${kind}`, () => {
  it("starts a Medium trial in the order's currency, ending 3 days after payment, with the card kept by reference", async () => {
    const before = new Date();
    const member = await newMember("ann@example.com");
    expect(member).toMatchObject({
      plan: "medium",
      currency: "EUR",
      price: 4900,
      status: "trialing",
      cancelAtPeriodEnd: false,
      cardBrand: "Visa",
      cardLast4: "4242",
      paymentMethodRef: expect.stringMatching(/^pm_sandbox_pays_/),
    });
    // Three days on Amsterdam's calendar: 72 hours, or 71 or 73 across a clock change.
    expect(member.trialEndsAt).toEqual(companyDaysLater(member.createdAt, 3));
    expect(member.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(member.currentPeriodEnd).toEqual(member.trialEndsAt);
    expect(sandbox.calls.charges.map((charge) => charge.saveCard)).toEqual([true]);
    expect(await historyOf(member.id)).toEqual(["new -> trialing (customer)"]);

    const [mail] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.trialStarted);
    for (const body of [mail!.text, mail!.html!]) {
      expect(body).toContain(formatMemberDay(member.trialEndsAt));
      expect(body).toContain("€49 every 3 months");
    }
  });

  it("refuses a second trial to the same address, in any letter case: no membership, the card not kept", async () => {
    await payFastTrack("Ann@Example.com");
    const first = await membershipOf("ann@example.com");
    await cancelMembership(db(), { membershipId: first.id, atOnce: true, actor: ADMIN, now: new Date(), origin });

    const secondOrder = await payFastTrack("ANN@example.COM");
    expect(sandbox.calls.charges.map((charge) => charge.saveCard)).toEqual([true, false]);
    expect(await db().select({ id: memberships.id }).from(memberships)).toEqual([{ id: first.id }]);
    const [order] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, secondOrder));
    expect(order!.status).toBe("paid");
    expect(await memberMailSubjects("ann@example.com")).toEqual([SUBJECTS.trialStarted, SUBJECTS.cancelled]);
  });
});

describe(`the billing job on ${kind}`, () => {
  it("charges at the trial's end and then every quarter: invoices, periods, receipts and history", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    expect(await bill(addHours(trialEnd, -1))).toEqual(counts({ trialReminders: 1 }));
    expect(await bill(addMilliseconds(trialEnd, -1))).toEqual(NOTHING);

    for (let charge = 1; charge <= 4; charge++) {
      // Every quarter from the trial's end, the billing anchor: never from the last quarter's end.
      const periodStart = companyMonthsLater(trialEnd, 3 * (charge - 1));
      const periodEnd = companyMonthsLater(trialEnd, 3 * charge);
      expect(await bill(periodStart), `charge ${charge}`).toEqual(counts({ invoicesCreated: 1, charged: 1 }));
      expect(await membershipOf("ann@example.com")).toMatchObject({
        status: "active",
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
      });
      // Nothing more until the quarter ends.
      expect(await bill(addMilliseconds(periodEnd, -1))).toEqual(NOTHING);
    }

    const charged = await invoicesOf(member.id);
    expect(charged).toHaveLength(4);
    charged.forEach((invoice, index) => {
      const start = companyMonthsLater(trialEnd, 3 * index);
      expect(invoice).toMatchObject({
        periodStart: start,
        periodEnd: companyMonthsLater(trialEnd, 3 * (index + 1)),
        amount: 4900,
        currency: "EUR",
        status: "paid",
        attempts: 1,
        paidAt: start,
        nextAttemptAt: null,
        providerRef: expect.stringMatching(/^sandbox_/),
      });
    });
    expect(sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey)).toEqual(
      charged.map((invoice) => `${invoice.idempotencyKey}:1`),
    );
    expect(sandbox.calls.renewals.every((renewal) => renewal.paymentMethodRef === member.paymentMethodRef)).toBe(true);

    const receipts = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.receipt);
    expect(receipts).toHaveLength(4);
    receipts.forEach((receipt, index) => {
      const invoice = charged[index]!;
      for (const body of [receipt.text, receipt.html!]) {
        expect(body).toContain(`${formatMemberDay(invoice.periodStart)} to ${formatMemberDay(invoice.periodEnd)}`);
        expect(body).toContain("€49");
        expect(body).toContain("Visa ending 4242");
        expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
        expect(body).toContain(invoice.number!);
      }
    });
    expect(await historyOf(member.id)).toEqual([
      "new -> trialing (customer)",
      "trialing -> active (system)",
      "active -> active (system)",
      "active -> active (system)",
      "active -> active (system)",
    ]);
  });

  it("sends the first-charge reminder once, the day before the trial ends", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    expect(await bill(addMinutes(trialEnd, -24 * 60 - 1))).toEqual(NOTHING);
    expect(await bill(addHours(trialEnd, -24))).toEqual(counts({ trialReminders: 1 }));
    expect(await bill(addHours(trialEnd, -23))).toEqual(NOTHING);
    expect(await bill(addHours(trialEnd, -1))).toEqual(NOTHING);
    expect(await bill(trialEnd)).toEqual(counts({ invoicesCreated: 1, charged: 1 }));
    expect(await bill(addMilliseconds(companyMonthsLater(trialEnd, 3), -1))).toEqual(NOTHING);

    expect(await memberMailSubjects("ann@example.com")).toEqual([
      SUBJECTS.trialStarted,
      SUBJECTS.firstChargeComing(trialEnd),
      SUBJECTS.receipt,
    ]);
    const [reminder] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject.startsWith("Your free trial"));
    expect(reminder!.text).toContain("Visa ending 4242");
  });

  it("after a decline, sends the payment reminder, retries and is paid (card 4999 9900 0000 3050)", async () => {
    const member = await newMember("ann@example.com", DECLINES_ONCE);
    const trialEnd = member.trialEndsAt;
    const graceEnd = addDays(trialEnd, 7);

    expect(await bill(trialEnd)).toEqual(counts({ invoicesCreated: 1, declined: 1 }));
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "past_due", graceEndsAt: graceEnd });
    const [declined] = await invoicesOf(member.id);
    expect(declined).toMatchObject({
      status: "open",
      attempts: 1,
      lastOutcome: "insufficient_funds",
      nextAttemptAt: addDays(trialEnd, 2),
    });
    const reminder = (await mailsTo("ann@example.com")).find((mail) => mail.subject === SUBJECTS.paymentFailed);
    for (const body of [reminder!.text, reminder!.html!]) {
      expect(body).toContain(formatMemberDay(graceEnd));
      expect(body).toContain("€49");
      expect(body).toContain("Visa card ending 3050");
    }

    expect(await bill(addDays(trialEnd, 1))).toEqual(NOTHING);
    expect(await bill(addDays(trialEnd, 2))).toEqual(counts({ charged: 1 }));
    expect(await membershipOf("ann@example.com")).toMatchObject({
      status: "active",
      graceEndsAt: null,
      // Paying late does not move the quarter.
      currentPeriodStart: trialEnd,
      currentPeriodEnd: companyMonthsLater(trialEnd, 3),
    });
    expect(await invoicesOf(member.id)).toMatchObject([
      { id: declined!.id, status: "paid", attempts: 2, paidAt: addDays(trialEnd, 2), nextAttemptAt: null },
    ]);
    expect(sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey)).toEqual([
      `${declined!.idempotencyKey}:1`,
      `${declined!.idempotencyKey}:2`,
    ]);
    // The grace's end passes without effect, and the next quarter is charged as usual.
    expect(await bill(graceEnd)).toEqual(NOTHING);
    expect(await bill(companyMonthsLater(trialEnd, 3))).toEqual(counts({ invoicesCreated: 1, charged: 1 }));

    expect(await memberMailSubjects("ann@example.com")).toEqual([
      SUBJECTS.trialStarted,
      SUBJECTS.paymentFailed,
      SUBJECTS.receipt,
      SUBJECTS.receipt,
    ]);
    expect(await historyOf(member.id)).toEqual([
      "new -> trialing (customer)",
      "trialing -> past_due (system)",
      "past_due -> active (system)",
      "active -> active (system)",
    ]);
  });

  it("ends a membership still unpaid 7 days after the reminder, and charges it no more (card 4999 9900 0000 0346)", async () => {
    const member = await newMember("ann@example.com", ALWAYS_DECLINES);
    const trialEnd = member.trialEndsAt;
    const graceEnd = addDays(trialEnd, 7);

    const daily: Partial<BillingCounts>[] = [];
    for (let day = 0; day < 7; day++) {
      const { trialReminders, ...run } = await bill(addDays(trialEnd, day));
      expect(trialReminders).toBe(0);
      daily.push(Object.fromEntries(Object.entries(run).filter(([, count]) => count > 0)));
    }
    expect(daily).toEqual([
      { invoicesCreated: 1, declined: 1 },
      {},
      { declined: 1 },
      {},
      { declined: 1 },
      {},
      { declined: 1 },
    ]);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "past_due", graceEndsAt: graceEnd });
    expect(await bill(addMilliseconds(graceEnd, -1))).toEqual(NOTHING);

    expect(await bill(graceEnd)).toEqual(counts({ endedUnpaid: 1 }));
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "ended", endedAt: graceEnd });
    expect(await invoicesOf(member.id)).toMatchObject([
      { status: "uncollectible", attempts: 4, nextAttemptAt: null, paidAt: null, providerRef: null },
    ]);

    for (const later of [addDays(graceEnd, 1), companyMonthsLater(trialEnd, 3), companyMonthsLater(trialEnd, 6)]) {
      expect(await bill(later)).toEqual(NOTHING);
    }
    expect(sandbox.calls.renewals).toHaveLength(4);
    expect(await invoicesOf(member.id)).toHaveLength(1);
    // One reminder, not one per retry, then the end.
    expect(await memberMailSubjects("ann@example.com")).toEqual([
      SUBJECTS.trialStarted,
      SUBJECTS.paymentFailed,
      SUBJECTS.ended,
    ]);
    const [ended] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.ended);
    for (const body of [ended!.text, ended!.html!]) {
      expect(body).toContain("€49");
      expect(body).toContain(formatMemberDay(graceEnd));
    }
    expect(await historyOf(member.id)).toEqual([
      "new -> trialing (customer)",
      "trialing -> past_due (system)",
      "past_due -> ended (system)",
    ]);
  });

  it("never charges a membership cancelled during the trial: it ends with the trial, with no invoice", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    expect(
      await cancelMembership(db(), {
        membershipId: member.id,
        actor: CUSTOMER_ACTOR,
        now: addHours(member.createdAt, 1),
        origin,
      }),
    ).toEqual({ kind: "cancelled", accessUntil: trialEnd, atOnce: false });
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "trialing", cancelAtPeriodEnd: true });
    const [cancelled] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.cancelled);
    for (const body of [cancelled!.text, cancelled!.html!]) {
      expect(body).toContain(`You keep its benefits until ${formatMemberDay(trialEnd)}`);
      expect(body).toContain("you are not charged anything");
    }

    // No "first charge tomorrow" for a trial that will not be charged.
    expect(await bill(addHours(trialEnd, -12))).toEqual(NOTHING);
    expect(await bill(trialEnd)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "cancelled", endedAt: trialEnd });
    expect(await bill(companyMonthsLater(trialEnd, 3))).toEqual(NOTHING);

    expect(await invoicesOf(member.id)).toEqual([]);
    expect(sandbox.calls.renewals).toEqual([]);
    expect(await memberMailSubjects("ann@example.com")).toEqual([SUBJECTS.trialStarted, SUBJECTS.cancelled]);
    expect(await historyOf(member.id)).toEqual([
      "new -> trialing (customer)",
      "trialing -> trialing (customer)",
      "trialing -> cancelled (system)",
    ]);
  });

  it("keeps a membership cancelled mid-quarter until the quarter's end, then charges nothing more", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    const quarterEnd = companyMonthsLater(trialEnd, 3);
    await bill(trialEnd);

    const cancel = () =>
      cancelMembership(db(), { membershipId: member.id, actor: CUSTOMER_ACTOR, now: addDays(trialEnd, 30), origin });
    expect(await cancel()).toEqual({ kind: "cancelled", accessUntil: quarterEnd, atOnce: false });
    const [cancelled] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.cancelled);
    for (const body of [cancelled!.text, cancelled!.html!]) {
      expect(body).toContain(`You keep its benefits until ${formatMemberDay(quarterEnd)}`);
      expect(body).toContain("No further fee will be charged.");
    }

    // The member keeps access for the quarter paid.
    expect(await bill(addMilliseconds(quarterEnd, -1))).toEqual(NOTHING);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "active", cancelAtPeriodEnd: true });

    expect(await bill(quarterEnd)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "cancelled", endedAt: quarterEnd });
    expect(await bill(companyMonthsLater(trialEnd, 6))).toEqual(NOTHING);
    expect(await cancel()).toEqual({ kind: "not-live" });

    expect(sandbox.calls.renewals).toHaveLength(1);
    expect(await invoicesOf(member.id)).toMatchObject([{ status: "paid", periodStart: trialEnd }]);
    expect(await historyOf(member.id)).toEqual([
      "new -> trialing (customer)",
      "trialing -> active (system)",
      "active -> active (customer)",
      "active -> cancelled (system)",
    ]);
  });

  it("is idempotent: a second run at the same instant changes nothing", async () => {
    const paying = await newMember("paying@example.com");
    const declining = await newMember("declining@example.com", ALWAYS_DECLINES);
    const leaving = await newMember("leaving@example.com");
    await cancelMembership(db(), { membershipId: leaving.id, actor: CUSTOMER_ACTOR, now: new Date(), origin });
    await newMember("reminded@example.com");
    const now = [paying, declining, leaving].map((member) => member.trialEndsAt).sort((a, b) => +b - +a)[0]!;
    // The fourth member's trial ends a moment after the others': the run sends their reminder.
    await db()
      .update(memberships)
      .set({ currentPeriodEnd: addHours(now, 1), trialEndsAt: addHours(now, 1) })
      .where(eq(memberships.email, "reminded@example.com"));

    const everything = async () => ({
      counts: await rowCounts(db()),
      memberships: await db().select().from(memberships).orderBy(asc(memberships.id)),
      invoices: await db().select().from(invoices).orderBy(asc(invoices.id)),
      mails: await db().select().from(outbox).orderBy(asc(outbox.id)),
    });
    expect(await bill(now)).toEqual(
      counts({ trialReminders: 1, invoicesCreated: 2, charged: 1, declined: 1, cancelledAtPeriodEnd: 1 }),
    );
    const afterFirst = await everything();
    expect(await bill(now)).toEqual(NOTHING);
    expect(await everything()).toEqual(afterFirst);
    expect(sandbox.calls.renewals).toHaveLength(2);
  });

  it("leaves an invoice open when the gateway does not answer, and charges it with the same key next run", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    const { gateway: down, unanswered } = unanswering(sandbox.gateway);
    expect(await bill(trialEnd, down)).toEqual(counts({ invoicesCreated: 1, gatewayErrors: 1 }));
    const [open] = await invoicesOf(member.id);
    expect(open).toMatchObject({ status: "open", attempts: 0, nextAttemptAt: trialEnd, lastOutcome: null });
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "trialing" });
    expect(await historyOf(member.id)).toEqual(["new -> trialing (customer)"]);

    expect(await bill(addMinutes(trialEnd, 5))).toEqual(counts({ charged: 1 }));
    expect(unanswered).toEqual([`${open!.idempotencyKey}:1`]);
    expect(sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey)).toEqual(unanswered);
    expect(await invoicesOf(member.id)).toMatchObject([{ id: open!.id, status: "paid", attempts: 1 }]);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "active" });
  });

  it("records none of a batch that fails before its commit, and the first run after its lease charges it with the same keys", async () => {
    const members = [];
    for (const name of ["ann", "bob", "cleo"]) members.push(await newMember(`${name}@example.com`));
    const now = addMinutes(members.at(-1)!.trialEndsAt, 1);
    const answers: string[] = [];
    const noting: CardFormGateway = {
      ...sandbox.gateway,
      chargeSaved: async (request) => {
        const answer = await sandbox.gateway.chargeSaved(request);
        answers.push(answer.providerRef);
        return answer;
      },
    };
    // The batch fails after the gateway charged it.
    await billingDiesAfterCharging(now, noting);
    const firstKeys = sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey);
    expect(firstKeys).toHaveLength(3);
    const open = await db().select().from(invoices);
    expect(
      open.map((invoice) => [invoice.status, invoice.attempts, invoice.providerRef, invoice.chargingSince]),
    ).toEqual(Array(3).fill(["open", 0, null, now]));
    expect((await db().select().from(memberships)).every((member) => member.status === "trialing")).toBe(true);
    for (const member of members) expect(await memberMailSubjects(member.email!)).not.toContain(SUBJECTS.receipt);

    // Taken by the run that failed: another run leaves them alone until the lease is over.
    expect(await bill(addMinutes(now, 5), noting)).toEqual(NOTHING);
    expect(sandbox.calls.renewals).toHaveLength(3);
    expect(await bill(new Date(now.getTime() + CHARGING_LEASE_MS + 1), noting)).toEqual(counts({ charged: 3 }));
    const secondKeys = sandbox.calls.renewals.slice(3).map((renewal) => renewal.idempotencyKey);
    expect(secondKeys.toSorted()).toEqual(firstKeys.toSorted());
    // The gateway answered the same keys with its first charges: nothing was charged twice.
    const paid = await db().select().from(invoices);
    expect(paid.map((invoice) => invoice.providerRef).toSorted()).toEqual(answers.slice(0, 3).toSorted());
    expect(new Set(answers).size).toBe(3);
    for (const member of members) {
      expect(await memberMailSubjects(member.email!)).toEqual([SUBJECTS.trialStarted, SUBJECTS.receipt]);
    }
  });

  it("never charges a trial cancelled while its first fee waits for the gateway: it ends at once", async () => {
    const member = await newMember("ann@example.com");
    const trialEnd = member.trialEndsAt;
    await bill(trialEnd, unanswering(sandbox.gateway).gateway);
    const cancelledAt = addHours(trialEnd, 1);
    expect(
      await cancelMembership(db(), { membershipId: member.id, actor: CUSTOMER_ACTOR, now: cancelledAt, origin }),
    ).toEqual({ kind: "cancelled", accessUntil: cancelledAt, atOnce: true });

    expect(await bill(addHours(trialEnd, 2))).toEqual(NOTHING);
    expect(sandbox.calls.renewals).toEqual([]);
    expect(await invoicesOf(member.id)).toMatchObject([{ status: "void", attempts: 0 }]);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "cancelled", endedAt: cancelledAt });
    const [cancelled] = (await mailsTo("ann@example.com")).filter((mail) => mail.subject === SUBJECTS.cancelled);
    expect(cancelled!.text).toContain("you are not charged anything");
  });

  it("asks again, after the lease, for the fee of a run that died and that a cancellation voided since, and refunds what it took", async () => {
    const member = await newMember("ann@example.com");
    const now = member.trialEndsAt;
    await billingDiesAfterCharging(now, sandbox.gateway);
    const cancelledAt = addMinutes(now, 1);
    expect(
      await cancelMembership(db(), { membershipId: member.id, actor: CUSTOMER_ACTOR, now: cancelledAt, origin }),
    ).toMatchObject({ kind: "cancelled", atOnce: true });
    expect(await invoicesOf(member.id)).toMatchObject([{ status: "void", chargingSince: now }]);

    expect(await bill(new Date(now.getTime() + CHARGING_LEASE_MS + 1))).toEqual(NOTHING);
    const keys = sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    const [invoice] = await invoicesOf(member.id);
    expect(invoice).toMatchObject({ status: "refunded", attempts: 1, chargingSince: null });
    expect(sandbox.calls.refunds).toMatchObject([{ chargeRef: invoice!.providerRef, amount: invoice!.amount }]);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "cancelled" });
  });

  it("asks the gateway for a fee with nothing locked, and refunds in full one that a cancellation voided meanwhile", async () => {
    const member = await newMember("ann@example.com");
    const lockFree: boolean[] = [];
    const cancelledMeanwhile: CardFormGateway = {
      ...sandbox.gateway,
      chargeSaved: async (request) => {
        lockFree.push(await rowLockIsFree(db(), memberships, member.id));
        // The member cancels while the charge is on its way: the fee is open, so it ends at once.
        await cancelMembership(db(), {
          membershipId: member.id,
          actor: CUSTOMER_ACTOR,
          now: member.trialEndsAt,
          origin,
        });
        return sandbox.gateway.chargeSaved(request);
      },
    };
    expect(await bill(member.trialEndsAt, cancelledMeanwhile)).toEqual(counts({ invoicesCreated: 1 }));
    expect(lockFree).toEqual([true]);
    const [invoice] = await invoicesOf(member.id);
    expect(invoice).toMatchObject({ status: "refunded", attempts: 1, chargingSince: null });
    expect(
      await db()
        .select({ amount: refunds.amount, status: refunds.status })
        .from(refunds)
        .where(eq(refunds.invoiceId, invoice!.id)),
    ).toEqual([{ amount: invoice!.amount, status: "done" }]);
    expect(sandbox.calls.refunds.map((refund) => refund.chargeRef)).toEqual([invoice!.providerRef]);
    expect(await membershipOf("ann@example.com")).toMatchObject({ status: "cancelled" });
    const subjects = await memberMailSubjects("ann@example.com");
    expect(subjects).not.toContain(SUBJECTS.receipt);
    expect(subjects.filter((subject) => subject.includes("we refunded €49"))).toHaveLength(1);
    expect(await bill(addHours(member.trialEndsAt, 1))).toEqual(NOTHING);
  });

  it.runIf(kind === "postgres")(
    "lets a cancellation and a charge of the same membership wait for each other without a deadlock",
    async () => {
      const member = await newMember("ann@example.com");
      await bill(member.trialEndsAt, unanswering(sandbox.gateway).gateway);
      const now = addHours(member.trialEndsAt, 1);
      const job = await openDatabase({ kind: "postgres", url: handle.url! });
      try {
        const cancelled = await db().transaction(async (tx) => {
          // The cancellation has the membership locked when the job comes for the invoice.
          await tx.select().from(memberships).where(eq(memberships.id, member.id)).for("update");
          const billing = runBilling(job.db, sandbox.gateway, { now, origin });
          await Promise.race([billing, sleep(1500)]);
          const outcome = await cancelMembership(tx, {
            membershipId: member.id,
            atOnce: true,
            actor: ADMIN,
            now,
            origin,
          });
          return { outcome, billing };
        });
        expect(cancelled.outcome).toMatchObject({ kind: "cancelled", atOnce: true });
        expect((await cancelled.billing).counts.charged).toBe(0);
      } finally {
        await job.close();
      }
      expect(await bill(addHours(now, 1))).toEqual(NOTHING);
      expect(sandbox.calls.renewals).toEqual([]);
      expect(await invoicesOf(member.id)).toMatchObject([{ status: "void" }]);
    },
  );

  it("charges each invoice exactly once when two runs bill at the same time", async () => {
    const members = [];
    for (const name of ["ann", "bob", "cleo", "dev", "eve"]) members.push(await newMember(`${name}@example.com`));
    const now = addMinutes(members.at(-1)!.trialEndsAt, 1);
    // The invoices are there and due, so that both runs go for them at once.
    expect(await bill(now, unanswering(sandbox.gateway).gateway)).toEqual(
      counts({ invoicesCreated: 5, gatewayErrors: 5 }),
    );
    // On PostgreSQL the second run is another connection, as another instance would be.
    const second = kind === "postgres" ? await openDatabase({ kind: "postgres", url: handle.url! }) : handle;
    try {
      const outcomes = await Promise.all([
        runBilling(db(), sandbox.gateway, { now, origin }),
        runBilling(second.db, sandbox.gateway, { now, origin }),
      ]);
      expect(outcomes.some((outcome) => outcome.ran)).toBe(true);
      expect(outcomes.reduce((sum, outcome) => sum + outcome.counts.charged, 0)).toBe(5);
    } finally {
      if (second !== handle) await second.close();
    }
    expect(await bill(now)).toEqual(NOTHING);

    const keys = sandbox.calls.renewals.map((renewal) => renewal.idempotencyKey);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    const paid = await db().select().from(invoices);
    expect(paid.map((invoice) => [invoice.status, invoice.attempts])).toEqual(Array(5).fill(["paid", 1]));
    expect((await db().select().from(memberships)).every((member) => member.status === "active")).toBe(true);
  });
});

describe(`refunding an invoice on ${kind}`, () => {
  const refund = (invoiceId: string, amount: number, idempotencyKey = randomUUID()) =>
    refundInvoice(db(), sandbox.gateway, {
      invoiceId,
      refund: { amount, reason: "Charged twice by mistake", idempotencyKey },
      actor: ADMIN,
    });

  it("refunds in parts, never more than was paid, and tells the member", async () => {
    const member = await newMember("ann@example.com");
    await bill(member.trialEndsAt);
    const [invoice] = await invoicesOf(member.id);

    const key = randomUUID();
    expect(await refund(invoice!.id, 2000, key)).toEqual({ kind: "refunded", amount: 2000, refundedTotal: 2000 });
    expect(await refund(invoice!.id, 2000, key)).toEqual({ kind: "already-refunded", refundedTotal: 2000 });
    expect(await refund(invoice!.id, 2901)).toEqual({ kind: "too-much", refundable: 2900 });
    expect((await invoicesOf(member.id))[0]!.status).toBe("paid");
    expect(await refund(invoice!.id, 2900)).toEqual({ kind: "refunded", amount: 2900, refundedTotal: 4900 });
    expect((await invoicesOf(member.id))[0]!.status).toBe("refunded");
    expect(await refund(invoice!.id, 1)).toEqual({ kind: "too-much", refundable: 0 });

    expect(sandbox.calls.refunds.map((call) => [call.chargeRef, call.amount])).toEqual([
      [invoice!.providerRef, 2000],
      [invoice!.providerRef, 2900],
    ]);
    const recorded = await db().select().from(refunds).orderBy(asc(refunds.createdAt));
    expect(recorded).toMatchObject([
      { invoiceId: invoice!.id, orderId: null, amount: 2000, currency: "EUR", actorLabel: ADMIN.label },
      { invoiceId: invoice!.id, orderId: null, amount: 2900, currency: "EUR", actorLabel: ADMIN.label },
    ]);
    expect(recorded.every((row) => row.reason === "Charged twice by mistake")).toBe(true);
    const mails = (await mailsTo("ann@example.com")).filter((mail) => mail.subject.includes("we refunded"));
    expect(mails.map((mail) => mail.subject)).toEqual([`${brand}: we refunded €20`, `${brand}: we refunded €29`]);
    expect(mails[0]!.text).toContain(
      `Medium membership, ${formatMemberDay(invoice!.periodStart)} to ${formatMemberDay(invoice!.periodEnd)}`,
    );
    expect(accountLinkOf(mails[0]!.text, "Manage your membership")).toEqual({
      origin: siteOrigin(),
      email: "ann@example.com",
    });
  });

  it("refunds nothing of an invoice that was never paid", async () => {
    const member = await newMember("ann@example.com", ALWAYS_DECLINES);
    await bill(member.trialEndsAt);
    const [invoice] = await invoicesOf(member.id);
    expect(await refund(invoice!.id, 100)).toEqual({ kind: "nothing-paid" });
    expect(await refund(randomUUID(), 100)).toEqual({ kind: "not-found" });
    expect(sandbox.calls.refunds).toEqual([]);
    expect(await db().select().from(refunds)).toEqual([]);
  });
});

describe(`the billing job's log and metrics on ${kind}`, () => {
  it("logs what a run did in counts only: no address, name, card or reference of anyone", async () => {
    const member = await newMember("ann.secret@example.com", ALWAYS_DECLINES);
    const lines: { level: string; fields: unknown; message: string }[] = [];
    const record = (level: string) => (fields: unknown, message: string) => {
      lines.push({ level, fields, message });
    };
    // pino's own methods take many shapes; the job calls them as (fields, message).
    const logger = { info: record("info"), warn: record("warn"), error: record("error") } as unknown as Parameters<
      typeof runBillingAndLog
    >[2]["logger"];
    await runBillingAndLog(db(), sandbox.gateway, { origin, logger, now: addMinutes(member.trialEndsAt, 1) });

    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: "info", message: "billing run" });
    expect(Object.keys(line!.fields as object).sort()).toEqual([...Object.keys(NOTHING), "durationMs"].sort());
    expect(line!.fields).toMatchObject({ invoicesCreated: 1, declined: 1 });
    const logged = JSON.stringify(lines);
    for (const secret of ["ann.secret", member.id, member.paymentMethodRef, "0346", member.customerId]) {
      expect(logged).not.toContain(secret);
    }
  });

  it("counts the fees it charged and declined, and its run, for /metrics", async () => {
    const paying = await newMember("pays@example.com");
    const declining = await newMember("declines@example.com", ALWAYS_DECLINES);
    const now = addMinutes(max([paying.trialEndsAt, declining.trialEndsAt]), 1);
    const before = await processMetrics();
    await runBillingAndLog(db(), sandbox.gateway, { origin, logger: pino({ level: "silent" }), now });
    const after = await processMetrics();

    const renewals = (outcome: string) => growth(before, after, "membership_renewals_total", { outcome });
    expect([renewals("paid"), renewals("declined"), renewals("gateway_error")]).toEqual([1, 1, 0]);
    expect(growth(before, after, "job_runs_total", { job: "billing", outcome: "done" })).toBe(1);
    expect(growth(before, after, "job_run_duration_seconds_count", { job: "billing" })).toBe(1);
    expect(sampleValue(after, "job_last_run_timestamp_seconds", { job: "billing", outcome: "done" })).toBeCloseTo(
      Date.now() / 1000,
      -1,
    );
  });
});
