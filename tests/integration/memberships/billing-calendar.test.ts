import { addMilliseconds } from "date-fns";
import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { invoices, memberships } from "~/db/schema";
import { NO_BILLING_COUNTS, type BillingCounts } from "~/features/memberships/billing-job.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { lastDayToWithdraw } from "~/features/legal/model-withdrawal-form";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { emptyBookingTables } from "../../support/integration/booking-helpers";
import { billAt, insertMembership } from "../../support/integration/memberships-fixtures";
import { insertCustomer } from "../../support/integration/orders-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

// A membership's whole life on the days that break month arithmetic: trials ending on the 28th to
// the 31st, in February of a leap year, before short months, late in the evening (when the day in
// Amsterdam is not the day in UTC) and on the days the clocks change. Every expected date is written
// out with Amsterdam's offset, worked out by hand (and checked with Python's zoneinfo), never computed
// here: the billing day must stay the trial's end day, or a shorter month's last day.

interface Lifecycle {
  /** The trial starts, and the contract is confirmed. */
  trialStart: string;
  trialEnd: string;
  /** The "first charge tomorrow" e-mail: 24 hours before the trial ends. */
  reminder: string;
  /** The last day in Amsterdam of the 14-day withdrawal period from the confirmation. */
  withdrawUntil: string;
  /** The four paid quarters: their starts, then the last one's end. */
  periods: [string, string, string, string, string];
  /** A cancellation asked at the start of the fourth quarter ends it one month later. */
  noticeEnd: string;
}

const LIFECYCLES: Lifecycle[] = [
  {
    trialStart: "2027-01-25T10:00+01:00",
    trialEnd: "2027-01-28T10:00+01:00", // 72 hours
    reminder: "2027-01-27T10:00+01:00",
    withdrawUntil: "2027-02-08",
    periods: [
      "2027-01-28T10:00+01:00",
      "2027-04-28T10:00+02:00",
      "2027-07-28T10:00+02:00",
      "2027-10-28T10:00+02:00",
      "2028-01-28T10:00+01:00",
    ],
    noticeEnd: "2027-11-28T10:00+01:00",
  },
  {
    trialStart: "2027-01-26T10:00+01:00",
    trialEnd: "2027-01-29T10:00+01:00", // 72 hours
    reminder: "2027-01-28T10:00+01:00",
    withdrawUntil: "2027-02-09",
    periods: [
      "2027-01-29T10:00+01:00",
      "2027-04-29T10:00+02:00",
      "2027-07-29T10:00+02:00",
      "2027-10-29T10:00+02:00",
      "2028-01-29T10:00+01:00",
    ],
    noticeEnd: "2027-11-29T10:00+01:00",
  },
  {
    trialStart: "2027-01-27T10:00+01:00",
    trialEnd: "2027-01-30T10:00+01:00", // 72 hours
    reminder: "2027-01-29T10:00+01:00",
    withdrawUntil: "2027-02-10",
    periods: [
      "2027-01-30T10:00+01:00",
      "2027-04-30T10:00+02:00",
      "2027-07-30T10:00+02:00",
      "2027-10-30T10:00+02:00",
      "2028-01-30T10:00+01:00",
    ],
    noticeEnd: "2027-11-30T10:00+01:00",
  },
  {
    trialStart: "2027-01-28T00:30+01:00",
    trialEnd: "2027-01-31T00:30+01:00", // 72 hours
    reminder: "2027-01-30T00:30+01:00",
    withdrawUntil: "2027-02-11",
    periods: [
      "2027-01-31T00:30+01:00",
      "2027-04-30T00:30+02:00",
      "2027-07-31T00:30+02:00",
      "2027-10-31T00:30+02:00",
      "2028-01-31T00:30+01:00",
    ],
    noticeEnd: "2027-11-30T00:30+01:00",
  },
  {
    trialStart: "2028-02-25T10:00+01:00",
    trialEnd: "2028-02-28T10:00+01:00", // 72 hours
    reminder: "2028-02-27T10:00+01:00",
    withdrawUntil: "2028-03-10",
    periods: [
      "2028-02-28T10:00+01:00",
      "2028-05-28T10:00+02:00",
      "2028-08-28T10:00+02:00",
      "2028-11-28T10:00+01:00",
      "2029-02-28T10:00+01:00",
    ],
    noticeEnd: "2028-12-28T10:00+01:00",
  },
  {
    trialStart: "2028-02-26T10:00+01:00",
    trialEnd: "2028-02-29T10:00+01:00", // 72 hours
    reminder: "2028-02-28T10:00+01:00",
    withdrawUntil: "2028-03-11",
    periods: [
      "2028-02-29T10:00+01:00",
      "2028-05-29T10:00+02:00",
      "2028-08-29T10:00+02:00",
      "2028-11-29T10:00+01:00",
      "2029-02-28T10:00+01:00",
    ],
    noticeEnd: "2028-12-29T10:00+01:00",
  },
  {
    trialStart: "2027-03-28T10:00+02:00",
    trialEnd: "2027-03-31T10:00+02:00", // 72 hours
    reminder: "2027-03-30T10:00+02:00",
    withdrawUntil: "2027-04-11",
    periods: [
      "2027-03-31T10:00+02:00",
      "2027-06-30T10:00+02:00",
      "2027-09-30T10:00+02:00",
      "2027-12-31T10:00+01:00",
      "2028-03-31T10:00+02:00",
    ],
    noticeEnd: "2028-01-31T10:00+01:00",
  },
  {
    trialStart: "2027-05-27T00:30+02:00",
    trialEnd: "2027-05-30T00:30+02:00", // 72 hours
    reminder: "2027-05-29T00:30+02:00",
    withdrawUntil: "2027-06-10",
    periods: [
      "2027-05-30T00:30+02:00",
      "2027-08-30T00:30+02:00",
      "2027-11-30T00:30+01:00",
      "2028-02-29T00:30+01:00",
      "2028-05-30T00:30+02:00",
    ],
    noticeEnd: "2028-03-29T00:30+02:00",
  },
  {
    trialStart: "2027-05-28T10:00+02:00",
    trialEnd: "2027-05-31T10:00+02:00", // 72 hours
    reminder: "2027-05-30T10:00+02:00",
    withdrawUntil: "2027-06-11",
    periods: [
      "2027-05-31T10:00+02:00",
      "2027-08-31T10:00+02:00",
      "2027-11-30T10:00+01:00",
      "2028-02-29T10:00+01:00",
      "2028-05-31T10:00+02:00",
    ],
    noticeEnd: "2028-03-29T10:00+02:00",
  },
  {
    trialStart: "2026-11-26T23:30+01:00",
    trialEnd: "2026-11-29T23:30+01:00", // 72 hours
    reminder: "2026-11-28T23:30+01:00",
    withdrawUntil: "2026-12-10",
    periods: [
      "2026-11-29T23:30+01:00",
      "2027-02-28T23:30+01:00",
      "2027-05-29T23:30+02:00",
      "2027-08-29T23:30+02:00",
      "2027-11-29T23:30+01:00",
    ],
    noticeEnd: "2027-09-29T23:30+02:00",
  },
  {
    trialStart: "2026-11-27T10:00+01:00",
    trialEnd: "2026-11-30T10:00+01:00", // 72 hours
    reminder: "2026-11-29T10:00+01:00",
    withdrawUntil: "2026-12-11",
    periods: [
      "2026-11-30T10:00+01:00",
      "2027-02-28T10:00+01:00",
      "2027-05-30T10:00+02:00",
      "2027-08-30T10:00+02:00",
      "2027-11-30T10:00+01:00",
    ],
    noticeEnd: "2027-09-30T10:00+02:00",
  },
  {
    trialStart: "2026-12-28T00:30+01:00",
    trialEnd: "2026-12-31T00:30+01:00", // 72 hours
    reminder: "2026-12-30T00:30+01:00",
    withdrawUntil: "2027-01-11",
    periods: [
      "2026-12-31T00:30+01:00",
      "2027-03-31T00:30+02:00",
      "2027-06-30T00:30+02:00",
      "2027-09-30T00:30+02:00",
      "2027-12-31T00:30+01:00",
    ],
    noticeEnd: "2027-10-30T00:30+02:00",
  },
  {
    trialStart: "2027-03-25T10:00+01:00",
    trialEnd: "2027-03-28T10:00+02:00", // 71 hours
    reminder: "2027-03-27T09:00+01:00",
    withdrawUntil: "2027-04-08",
    periods: [
      "2027-03-28T10:00+02:00",
      "2027-06-28T10:00+02:00",
      "2027-09-28T10:00+02:00",
      "2027-12-28T10:00+01:00",
      "2028-03-28T10:00+02:00",
    ],
    noticeEnd: "2028-01-28T10:00+01:00",
  },
  {
    trialStart: "2027-10-28T10:00+02:00",
    trialEnd: "2027-10-31T10:00+01:00", // 73 hours
    reminder: "2027-10-30T11:00+02:00",
    withdrawUntil: "2027-11-11",
    periods: [
      "2027-10-31T10:00+01:00",
      "2028-01-31T10:00+01:00",
      "2028-04-30T10:00+02:00",
      "2028-07-31T10:00+02:00",
      "2028-10-31T10:00+01:00",
    ],
    noticeEnd: "2028-08-31T10:00+02:00",
  },
];

const kind = testDatabaseKind();
const origin = "https://site.test";
const db = installedTestDatabase();
const at = (iso: string) => new Date(iso);
const counts = (some: Partial<BillingCounts>): BillingCounts => ({ ...NO_BILLING_COUNTS, ...some });
const amsterdamDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" });

beforeEach(async () => {
  await emptyBookingTables(db());
});

const bill = (now: Date) => billAt(db(), now);

async function membership(id: string) {
  const [row] = await db().select().from(memberships).where(eq(memberships.id, id));
  return row!;
}

describe(`billing dates on every day of the year, on ${kind}`, () => {
  it.each(LIFECYCLES)("a trial ending $trialEnd", async (life) => {
    const customer = await insertCustomer(db(), "Ann Example", "ann@example.com");
    const trial = await insertMembership(db(), { customerId: customer.id, createdAt: at(life.trialStart) });
    expect(trial).toMatchObject({ trialEndsAt: at(life.trialEnd), billingAnchor: at(life.trialEnd) });

    expect(await bill(addMilliseconds(at(life.reminder), -1))).toEqual(NO_BILLING_COUNTS);
    expect(await bill(at(life.reminder))).toEqual(counts({ trialReminders: 1 }));

    for (let quarter = 0; quarter < 4; quarter++) {
      const [start, end] = [at(life.periods[quarter]!), at(life.periods[quarter + 1]!)];
      expect(await bill(addMilliseconds(start, -1)), `before quarter ${quarter + 1}`).toEqual(NO_BILLING_COUNTS);
      expect(await bill(start), `quarter ${quarter + 1}`).toEqual(counts({ invoicesCreated: 1, charged: 1 }));
      expect(await membership(trial.id)).toMatchObject({
        status: "active",
        currentPeriodStart: start,
        currentPeriodEnd: end,
      });
    }
    const billed = await db()
      .select({ start: invoices.periodStart, end: invoices.periodEnd, paidAt: invoices.paidAt })
      .from(invoices)
      .where(eq(invoices.membershipId, trial.id))
      .orderBy(asc(invoices.periodStart));
    expect(billed).toEqual(
      life.periods.slice(0, 4).map((start, quarter) => ({
        start: at(start),
        end: at(life.periods[quarter + 1]!),
        paidAt: at(start),
      })),
    );

    const noticeEnd = at(life.noticeEnd);
    expect(
      await cancelMembership(db(), {
        membershipId: trial.id,
        actor: CUSTOMER_ACTOR,
        now: at(life.periods[3]),
        origin,
        gateway: sandboxGateway,
      }),
    ).toMatchObject({ kind: "cancelled", accessUntil: noticeEnd });
    expect(await bill(addMilliseconds(noticeEnd, -1))).toEqual(NO_BILLING_COUNTS);
    expect(await bill(noticeEnd)).toEqual(counts({ cancelledAtPeriodEnd: 1 }));
    expect(await membership(trial.id)).toMatchObject({ status: "cancelled", endedAt: noticeEnd });

    const lastMoment = lastDayToWithdraw(at(life.trialStart));
    expect(amsterdamDay.format(lastMoment)).toBe(life.withdrawUntil);
    expect(amsterdamDay.format(addMilliseconds(lastMoment, 1))).not.toBe(life.withdrawUntil);
  });
});
