import { randomUUID } from "node:crypto";
import { addMinutes } from "date-fns";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  invoices,
  membershipEvents,
  memberships,
  outbox,
  planChanges,
  type MembershipPlan,
  type MembershipStatus,
} from "~/db/schema";
import { memberAllowance } from "~/features/memberships/fast-track-allowance.server";
import { changePlan, keepPlan, type PlanChangeRequest } from "~/features/memberships/plan-change.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import type { CardFormGateway, SavedCardChargeResult } from "~/features/payments/gateway";
import { createSandboxGateway, sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { companyMonthsLater } from "~/lib/company-time";
import { bookingTestDatabase } from "../../support/integration/booking-helpers";
import { billAt, FIXTURE_ORIGIN, insertMembership } from "../../support/integration/memberships-fixtures";
import { insertCustomer } from "../../support/integration/orders-fixtures";
import { testDatabaseKind } from "../../support/test-database";
import { expectMembershipFiguresToMatchRecount } from "../../support/integration/totals-recount";

const db = bookingTestDatabase();
// A paid quarter of 90 days, 1 December 2026 to 1 March 2027 (Amsterdam); from 15 January, 45 are left.
const PERIOD_START = new Date("2026-11-30T23:00:00Z");
const PERIOD_END = companyMonthsLater(PERIOD_START, 3);
const MID_JANUARY = new Date("2027-01-15T10:00:00Z");
const ADMIN = { userId: null, label: "admin@example.com" };

async function member({
  plan = "medium",
  status = "active",
  card = "pays",
}: { plan?: MembershipPlan; status?: MembershipStatus; card?: "pays" | "declines" } = {}) {
  const email = `member-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await insertCustomer(db(), "Mia Jansen", email);
  const created = await insertMembership(db(), { customerId: customer.id, email, plan, status });
  const periods =
    status === "trialing"
      ? {}
      : { currentPeriodStart: PERIOD_START, currentPeriodEnd: PERIOD_END, billingAnchor: PERIOD_START };
  await db()
    .update(memberships)
    .set({ ...periods, paymentMethodRef: `pm_sandbox_${card}_${randomUUID()}` })
    .where(eq(memberships.id, created.id));
  return { email, id: created.id };
}

function change(
  membershipId: string,
  to: MembershipPlan,
  overrides: Partial<PlanChangeRequest> = {},
  gateway: CardFormGateway = sandboxGateway,
) {
  return changePlan(db(), gateway, {
    membershipId,
    to,
    expectedAmount: null,
    idempotencyKey: randomUUID(),
    actor: ADMIN,
    now: MID_JANUARY,
    origin: FIXTURE_ORIGIN,
    ...overrides,
  });
}

/** A sandbox of its own, noting the key of every saved-card charge it is asked for. */
function watchedSandbox() {
  const sandbox = createSandboxGateway();
  const keys: string[] = [];
  const gateway: CardFormGateway = {
    ...sandbox,
    chargeSaved: async (request) => {
      keys.push(request.idempotencyKey);
      // A gateway takes a while to answer: time for another request to come in.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return sandbox.chargeSaved(request);
    },
  };
  return { gateway, keys };
}

const membershipById = async (id: string) => (await db().select().from(memberships).where(eq(memberships.id, id)))[0]!;
const invoicesOf = (id: string) => db().select().from(invoices).where(eq(invoices.membershipId, id));

describe(`changing plan on ${testDatabaseKind()}`, () => {
  it("Medium to Premium mid-quarter: at once, the prorated difference charged once under the form's key, 5 free accesses", async () => {
    const { id, email } = await member();
    const key = randomUUID();
    // 3000 x 45 / 90: 1500 cents.
    expect(await change(id, "premium", { idempotencyKey: key, expectedAmount: 1500 })).toEqual({
      kind: "changed",
      plan: "premium",
      charged: 1500,
      currency: "EUR",
    });
    expect(await change(id, "premium", { idempotencyKey: key, expectedAmount: 1500 })).toEqual({
      kind: "changed",
      plan: "premium",
      charged: 1500,
      currency: "EUR",
    });
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900, status: "active" });
    const [invoice, ...others] = await invoicesOf(id);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ amount: 1500, status: "paid", periodStart: MID_JANUARY, periodEnd: PERIOD_END });
    expect(invoice!.number).toMatch(/^\d{4}-\d{6}$/);
    expect(await db().select().from(planChanges)).toEqual([
      expect.objectContaining({ status: "done", amount: 1500, invoiceId: invoice!.id, actorLabel: ADMIN.label }),
    ]);
    const [event] = await db().select().from(membershipEvents).where(eq(membershipEvents.membershipId, id));
    expect(event).toMatchObject({
      fromStatus: "active",
      toStatus: "active",
      plan: "premium",
      fromPlan: "medium",
      actorLabel: ADMIN.label,
    });
    expect(event!.note).toContain("Formule : Medium → Premium, différence payée");
    const mails = await db().select().from(outbox).where(eq(outbox.to, email));
    expect(mails.map((mail) => mail.subject)).toEqual(["Your membership is now Premium"]);
    expect(mails[0]!.textBody).toContain("€15, the difference for the rest of this quarter");
    expect(await memberAllowance(db(), email, MID_JANUARY)).toMatchObject({ perMonth: 5, left: 5 });
    // The statistics' daily figures count the move with its plans.
    await expectMembershipFiguresToMatchRecount(db());
  });

  it("refuses to charge an amount the page did not show, and a declined card changes nothing", async () => {
    const { id } = await member();
    expect(await change(id, "premium", { expectedAmount: 1533 })).toEqual({ kind: "amount-changed", amount: 1500 });
    const declining = await member({ card: "declines" });
    expect(await change(declining.id, "premium")).toMatchObject({ kind: "declined" });
    for (const membershipId of [id, declining.id]) {
      expect(await membershipById(membershipId)).toMatchObject({ plan: "medium", price: 4900 });
      expect(await invoicesOf(membershipId)).toEqual([]);
    }
    expect((await db().select().from(planChanges)).map((row) => row.status)).toEqual(["declined"]);
  });

  it("Premium to Medium: kept until the quarter ends, then the billing job bills Medium", async () => {
    const { id, email } = await member({ plan: "premium" });
    expect(await change(id, "medium")).toEqual({ kind: "scheduled", plan: "medium", from: PERIOD_END });
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900, scheduledPlan: "medium" });
    expect(await memberAllowance(db(), email, MID_JANUARY)).toMatchObject({ perMonth: 5 });
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, email));
    expect(mail!.subject).toBe("Your membership changes to Medium on 1 March 2027");

    await billAt(db(), addMinutes(PERIOD_END, 1));
    expect(await membershipById(id)).toMatchObject({ plan: "medium", price: 4900, scheduledPlan: null });
    const [renewal] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.membershipId, id), eq(invoices.periodStart, PERIOD_END)));
    expect(renewal).toMatchObject({ amount: 4900, status: "paid" });
    // The history: asked for on Premium, made by the job when the quarter ended.
    const history = await db()
      .select({ plan: membershipEvents.plan, fromPlan: membershipEvents.fromPlan, actor: membershipEvents.actorLabel })
      .from(membershipEvents)
      .where(eq(membershipEvents.membershipId, id))
      .orderBy(membershipEvents.createdAt);
    expect(history.filter((entry) => entry.fromPlan !== null)).toEqual([
      { plan: "medium", fromPlan: "premium", actor: "system" },
    ]);
    expect(history[0]).toEqual({ plan: "premium", fromPlan: null, actor: ADMIN.label });
    await expectMembershipFiguresToMatchRecount(db());
  });

  it("a move to Medium called off: Premium stays, and is billed when the quarter ends", async () => {
    const { id, email } = await member({ plan: "premium" });
    expect(await change(id, "medium")).toMatchObject({ kind: "scheduled" });
    const keep = () => keepPlan(db(), sandboxGateway, { membershipId: id, actor: ADMIN, origin: FIXTURE_ORIGIN });
    expect(await keep()).toEqual({ kind: "kept", plan: "premium", instead: "medium" });
    expect(await keep()).toEqual({ kind: "nothing-scheduled" });
    expect(
      await keepPlan(db(), sandboxGateway, { membershipId: randomUUID(), actor: ADMIN, origin: FIXTURE_ORIGIN }),
    ).toEqual({
      kind: "not-found",
    });
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900, scheduledPlan: null });
    const notes = await db()
      .select({ note: membershipEvents.note, actorLabel: membershipEvents.actorLabel })
      .from(membershipEvents)
      .where(eq(membershipEvents.membershipId, id))
      .orderBy(membershipEvents.createdAt);
    expect(notes.at(-1)).toEqual({
      note: "Formule : passage en Medium annulé, Premium conservée",
      actorLabel: ADMIN.label,
    });
    const mails = await db().select().from(outbox).where(eq(outbox.to, email)).orderBy(outbox.createdAt);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Your membership changes to Medium on 1 March 2027",
      "Your membership stays Premium",
    ]);
    expect(mails[1]!.textBody).toContain("Next fee: €79 on 1 March 2027, then every 3 months");

    await billAt(db(), addMinutes(PERIOD_END, 1));
    const [renewal] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.membershipId, id), eq(invoices.periodStart, PERIOD_END)));
    expect(renewal).toMatchObject({ amount: 7900, status: "paid" });
    expect(await membershipById(id)).toMatchObject({ plan: "premium" });
  });

  it("during the trial: the plan that will be charged changes, nothing is charged", async () => {
    const { id, email } = await member({ status: "trialing" });
    expect(await change(id, "premium")).toEqual({ kind: "changed", plan: "premium", charged: 0, currency: "EUR" });
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900, status: "trialing" });
    expect(await invoicesOf(id)).toEqual([]);
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, email));
    expect(mail!.textBody).toMatch(/First charge: €79 on \d+ \w+ \d{4}/);
  });

  it("two forms for the same upgrade at once (two tabs, two keys) charge the difference once", async () => {
    const { id, email } = await member();
    const { gateway, keys } = watchedSandbox();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => change(id, "premium", { expectedAmount: 1500 }, gateway)),
    );
    // Each is told the change was made, or, once it was, that Premium is already the plan.
    for (const outcome of outcomes) {
      expect([
        { kind: "changed", plan: "premium", charged: 1500, currency: "EUR" },
        { kind: "refused", reason: "same" },
      ]).toContainEqual(outcome);
    }
    expect(new Set(keys).size).toBe(1);
    expect((await invoicesOf(id)).map((invoice) => invoice.amount)).toEqual([1500]);
    expect((await db().select().from(planChanges)).map((row) => row.status)).toEqual(["done"]);
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900 });
    expect(await db().select().from(outbox).where(eq(outbox.to, email))).toHaveLength(1);
  });

  it("a second form for the upgrade sent while the first is being charged (another key) finishes that one charge", async () => {
    const { id } = await member();
    const { gateway, keys } = watchedSandbox();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    // The first charge is held at the gateway until the second form has had its answer.
    const holding: CardFormGateway = {
      ...gateway,
      chargeSaved: async (request) => {
        if (!held) {
          held = true;
          await released;
        }
        return gateway.chargeSaved(request);
      },
    };
    // Each with a key of its own, as two forms are.
    const request = () => change(id, "premium", { expectedAmount: 1500 }, holding);
    const first = request();
    await expect.poll(() => held).toBe(true);
    const changed = { kind: "changed", plan: "premium", charged: 1500, currency: "EUR" };
    expect(await request()).toEqual(changed);
    release();
    expect(await first).toEqual(changed);
    expect(new Set(keys).size).toBe(1);
    expect((await invoicesOf(id)).map((invoice) => invoice.amount)).toEqual([1500]);
  });

  it("a change whose request died after the card was charged is finished by the billing job, without a second charge", async () => {
    const { id, email } = await member();
    const { gateway, keys } = watchedSandbox();
    let firstAnswer: SavedCardChargeResult | undefined;
    // The process dies once the gateway has charged: its answer never reaches the database.
    const dying: CardFormGateway = {
      ...gateway,
      chargeSaved: async (request) => {
        firstAnswer = await gateway.chargeSaved(request);
        throw new Error("the process was killed");
      },
    };
    await expect(change(id, "premium", { expectedAmount: 1500 }, dying)).rejects.toThrow("the process was killed");
    expect((await db().select().from(planChanges)).map((row) => row.status)).toEqual(["charging"]);
    expect(await membershipById(id)).toMatchObject({ plan: "medium" });

    const bill = async (minutes: number) => {
      const run = await runBilling(db(), gateway, { now: addMinutes(MID_JANUARY, minutes), origin: FIXTURE_ORIGIN });
      return run.counts.planChangesFinished;
    };
    // Within the lease the change is left to its request, which may still be on its way.
    expect(await bill(5)).toBe(0);
    // A gateway that does not answer leaves it for the next run, and the run goes on.
    const down: CardFormGateway = {
      ...gateway,
      chargeSaved: () => Promise.reject(new Error("connect ETIMEDOUT")),
    };
    const failed = await runBilling(db(), down, { now: addMinutes(MID_JANUARY, 10), origin: FIXTURE_ORIGIN });
    expect(failed).toMatchObject({ ran: true, counts: { planChangesFinished: 0, gatewayErrors: 1 } });
    expect(await bill(11)).toBe(1);
    expect(await bill(12)).toBe(0);

    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    const [invoice, ...others] = await invoicesOf(id);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ amount: 1500, status: "paid", providerRef: firstAnswer!.providerRef });
    expect(await db().select().from(planChanges)).toEqual([
      expect.objectContaining({ status: "done", invoiceId: invoice!.id, actorLabel: ADMIN.label }),
    ]);
    expect(await membershipById(id)).toMatchObject({ plan: "premium", price: 7900 });
    const mails = await db().select().from(outbox).where(eq(outbox.to, email));
    expect(mails.map((mail) => mail.subject)).toEqual(["Your membership is now Premium"]);
  });

  it("refuses a past-due membership, the same plan, and an unknown one", async () => {
    const pastDue = await member({ status: "past_due" });
    expect(await change(pastDue.id, "premium")).toMatchObject({ kind: "refused" });
    const { id } = await member();
    expect(await change(id, "medium")).toMatchObject({ kind: "refused" });
    expect(await change(randomUUID(), "premium")).toEqual({ kind: "not-found" });
    expect(await db().select().from(outbox)).toEqual([]);
  });
});
