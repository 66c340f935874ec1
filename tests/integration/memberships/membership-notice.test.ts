import { addDays, addHours, addMilliseconds } from "date-fns";
import { asc, eq } from "drizzle-orm";
import { companyMonthsLater } from "~/lib/company-time";
import { beforeEach, describe, expect, it } from "vitest";
import { invoices, membershipEvents, memberships, outbox, refunds } from "~/db/schema";
import { NO_BILLING_COUNTS, type BillingCounts } from "~/features/memberships/billing-job.server";
import { cancelMembership, cancelMembershipOfAddress } from "~/features/memberships/cancellation.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { CUSTOMER_ACTOR, type Actor } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { emptyBookingTables } from "../../support/integration/booking-helpers";
import { billAt, insertMembership } from "../../support/integration/memberships-fixtures";
import { insertCustomer } from "../../support/integration/orders-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

// One month's notice after the first term (art. 6:236 sub j BW): the member's cancellation ends a
// renewed quarter one month after the request, and the rest of its fee is refunded pro rata.

const kind = testDatabaseKind();
const origin = "https://site.test";
const ADMIN: Actor = { userId: null, label: "admin@example.org" };
const EMAIL = "ann@example.com";
const PRICE = 4900;
// No clock change falls in the second quarter (10 April to 10 July), in any time zone: its length
// and the refund are the same wherever the tests run.
const CREATED_AT = new Date("2025-01-07T12:00:00Z");

const db = installedTestDatabase();

beforeEach(async () => {
  await emptyBookingTables(db());
});

const bill = (now: Date) => billAt(db(), now);

const counts = (some: Partial<BillingCounts>): BillingCounts => ({ ...NO_BILLING_COUNTS, ...some });

async function membership(id: string) {
  const [row] = await db().select().from(memberships).where(eq(memberships.id, id));
  return row!;
}

const invoicesOf = (membershipId: string) =>
  db().select().from(invoices).where(eq(invoices.membershipId, membershipId)).orderBy(asc(invoices.periodStart));

async function historyOf(membershipId: string) {
  const events = await db()
    .select()
    .from(membershipEvents)
    .where(eq(membershipEvents.membershipId, membershipId))
    .orderBy(asc(membershipEvents.createdAt), asc(membershipEvents.id));
  return events.map(
    (event) => `${event.fromStatus ?? "new"} -> ${event.toStatus} (${event.actorLabel}): ${event.note ?? ""}`,
  );
}

const mailsTo = (to: string) =>
  db()
    .select({ subject: outbox.subject, text: outbox.textBody, html: outbox.htmlBody })
    .from(outbox)
    .where(eq(outbox.to, to))
    .orderBy(asc(outbox.createdAt), asc(outbox.id));

const cancel = (membershipId: string, now: Date, actor = CUSTOMER_ACTOR, atOnce = false) =>
  cancelMembership(db(), { membershipId, actor, now, origin, gateway: sandboxGateway, atOnce });

/** A member in their trial, billed by the job: `quarters` fees paid (0 for none yet). */
async function member(quarters: number) {
  const customer = await insertCustomer(db(), "Ann Example", EMAIL);
  const trial = await insertMembership(db(), {
    customerId: customer.id,
    email: EMAIL,
    price: PRICE,
    createdAt: CREATED_AT,
  });
  for (let quarter = 0; quarter < quarters; quarter++) {
    expect(await bill((await membership(trial.id)).currentPeriodEnd)).toMatchObject({ charged: 1 });
  }
  return membership(trial.id);
}

/** Cancelled at `requestedAt`, `member` keeps its period to the end, with no refund, and is charged nothing more. */
async function expectEndAtPeriodEnd(member: { id: string; currentPeriodEnd: Date }, requestedAt: Date) {
  expect(await cancel(member.id, requestedAt)).toEqual({
    kind: "cancelled",
    accessUntil: member.currentPeriodEnd,
    atOnce: false,
  });
  expect(await membership(member.id)).toMatchObject({
    cancelAtPeriodEnd: true,
    currentPeriodEnd: member.currentPeriodEnd,
  });
  expect(await db().select().from(refunds)).toEqual([]);
  expect(await bill(addMilliseconds(member.currentPeriodEnd, -1))).toEqual(NO_BILLING_COUNTS);
  expect(await bill(member.currentPeriodEnd)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
}

describe(`one month's notice after the first term, on ${kind}`, () => {
  it("ends a renewed quarter one month after the request, refunds the rest pro rata, and charges nothing more", async () => {
    const renewed = await member(2);
    const quarter = { start: renewed.currentPeriodStart, end: renewed.currentPeriodEnd };
    expect(renewed).toMatchObject({ status: "active", currentPeriodStart: companyMonthsLater(renewed.trialEndsAt, 3) });
    const [, paid] = await invoicesOf(renewed.id);
    expect(paid).toMatchObject({ status: "paid", amount: PRICE, periodStart: quarter.start, periodEnd: quarter.end });

    // 10 days into the 91-day quarter: it ends a month later, and 51 of its 91 days are refunded.
    const requestedAt = addDays(quarter.start, 10);
    const endsAt = companyMonthsLater(requestedAt, 1);
    expect(Math.round((+quarter.end - +quarter.start) / 86_400_000)).toBe(91);
    expect(Math.round((+quarter.end - +endsAt) / 86_400_000)).toBe(51);
    const refund = 2747; // 4900 − floor(4900 × 40 / 91): the member gets the odd cent

    expect(await cancel(renewed.id, requestedAt)).toEqual({
      kind: "cancelled",
      accessUntil: endsAt,
      atOnce: false,
      refunded: { amount: refund, currency: "EUR" },
    });
    expect(await membership(renewed.id)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      currentPeriodStart: quarter.start,
      currentPeriodEnd: endsAt,
    });
    expect(await db().select().from(refunds).where(eq(refunds.invoiceId, paid!.id))).toMatchObject([
      {
        amount: refund,
        currency: "EUR",
        reason: "Préavis d'un mois : part non utilisée du trimestre",
        idempotencyKey: `notice:${renewed.id}:${paid!.id}`,
        actorLabel: CUSTOMER_ACTOR.label,
      },
    ]);
    // Part of the fee is refunded: the invoice stays paid.
    expect((await invoicesOf(renewed.id)).map((invoice) => invoice.status)).toEqual(["paid", "paid"]);

    const cancelled = (await mailsTo(EMAIL)).find((mail) => mail.subject.includes("membership is cancelled"));
    for (const body of [cancelled!.text, cancelled!.html!]) {
      expect(body).toContain(`You keep its benefits until ${formatMemberDay(endsAt)}`);
      expect(body).toContain("we refund €27.47, the part of its fee after");
    }
    expect((await mailsTo(EMAIL)).filter((mail) => mail.text.includes("€27.47"))).toHaveLength(2);

    // Asking again changes nothing: the same end, no second refund.
    expect(await cancel(renewed.id, addDays(requestedAt, 1))).toEqual({
      kind: "cancelled",
      accessUntil: endsAt,
      atOnce: false,
    });
    expect(await db().select().from(refunds)).toHaveLength(1);

    // The member keeps access until the new end; then it ends, and no further fee is ever charged.
    expect(await bill(addMilliseconds(endsAt, -1))).toEqual(NO_BILLING_COUNTS);
    expect(await bill(endsAt)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
    expect(await membership(renewed.id)).toMatchObject({ status: "cancelled", endedAt: endsAt });
    expect(await bill(quarter.end)).toEqual(NO_BILLING_COUNTS);
    expect(await bill(companyMonthsLater(quarter.end, 3))).toEqual(NO_BILLING_COUNTS);
    expect(await invoicesOf(renewed.id)).toHaveLength(2);

    expect((await historyOf(renewed.id)).slice(-2)).toEqual([
      `active -> active (customer): Résiliation avec préavis d'un mois : fin le ${formatDateTimeFr(endsAt)}`,
      "active -> cancelled (system): Fin de la période payée : résiliation effective",
    ]);
  });

  it("ends a renewed quarter at its own end, refunding nothing, when it ends within the month", async () => {
    const renewed = await member(2);
    await expectEndAtPeriodEnd(renewed, addHours(companyMonthsLater(renewed.currentPeriodEnd, -1), 1));
    expect(await invoicesOf(renewed.id)).toHaveLength(2);
  });

  it("keeps the first paid quarter to its end, refunding nothing", async () => {
    const first = await member(1);
    await expectEndAtPeriodEnd(first, addDays(first.currentPeriodStart, 1));
    expect(await invoicesOf(first.id)).toHaveLength(1);
  });

  it("keeps the trial to its end, charging nothing", async () => {
    const trial = await member(0);
    expect(await cancel(trial.id, addHours(trial.createdAt, 1))).toEqual({
      kind: "cancelled",
      accessUntil: trial.trialEndsAt,
      atOnce: false,
    });
    expect(await bill(trial.trialEndsAt)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
    expect(await invoicesOf(trial.id)).toEqual([]);
    expect(await db().select().from(refunds)).toEqual([]);
  });

  it("leaves an admin's cancellation at once as it was: it ends now, with no refund", async () => {
    const renewed = await member(2);
    const now = addDays(renewed.currentPeriodStart, 10);
    expect(await cancel(renewed.id, now, ADMIN, true)).toEqual({ kind: "cancelled", accessUntil: now, atOnce: true });
    expect(await membership(renewed.id)).toMatchObject({ status: "cancelled", endedAt: now });
    expect(await db().select().from(refunds)).toEqual([]);
  });

  it("tells the member on the unsubscribe page's outcome until when, and what was refunded", async () => {
    const renewed = await member(2);
    const requestedAt = addDays(renewed.currentPeriodStart, 10);
    expect(await cancelMembershipOfAddress(db(), { email: EMAIL, now: requestedAt, origin })).toEqual({
      accessUntil: companyMonthsLater(requestedAt, 1),
      atOnce: false,
      refunded: { amount: 2747, currency: "EUR" },
    });
  });
});
