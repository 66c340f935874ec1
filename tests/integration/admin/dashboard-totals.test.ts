import { addDays, subDays } from "date-fns";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CURRENCY_CODES, invoices, memberships, orders, refunds } from "~/db/schema";
import { refundOrder } from "~/features/booking/order-refund.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { CUSTOMER_ACTOR, SYSTEM_ACTOR } from "~/lib/actor";
import { createBooking } from "~/features/booking/orders.server";
import { erasePersonalData } from "~/features/privacy/personal-data.server";
import { runRetention } from "~/features/privacy/retention-job.server";
import { seedDatabase } from "../../../scripts/seed-database";
import { bookingInput, bookingTestDatabase, emptyBookingTables } from "../../support/integration/booking-helpers";
import { insertCustomer, insertOrder } from "../../support/integration/orders-fixtures";
import { book, payByCard } from "../../support/integration/personal-data-fixtures";
import { insertMembership, insertMembershipEvent, paidMember } from "../../support/integration/memberships-fixtures";
import { testDatabaseKind } from "../../support/test-database";
import {
  expectMembershipFiguresToMatchRecount,
  expectRevenueToMatchRecount,
  expectTotalsToMatchRecount,
} from "../../support/integration/totals-recount";

const db = bookingTestDatabase();

const ADMIN = { userId: null, label: "admin@example.com" };
const ORIGIN = "https://site.test";

/** The dashboard's members per status, only those with some. */
const membersOf = (figures: Awaited<ReturnType<typeof expectMembershipFiguresToMatchRecount>>) =>
  Object.fromEntries(
    figures.members.filter(({ members }) => members > 0).map(({ status, members }) => [status, members]),
  );

describe(`the dashboard totals kept by triggers on ${testDatabaseKind()}`, () => {
  it("count inserted orders and customers, one at a time and many in one statement", async () => {
    const customer = await insertCustomer(db(), "Grace Hopper");
    await insertCustomer(db(), "Guest Without Orders");
    await insertOrder(db(), { customerId: customer.id, amount: 2200, status: "paid" });
    await insertOrder(db(), { customerId: customer.id, amount: 1100, status: "completed", currency: "USD" });
    await db().execute(sql`
      insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site, idempotency_key, adults)
      select 'FT-0-BULK' || n, ${customer.id}, 100 * n, (array['EUR', 'USD', 'GBP'])[1 + n % 3],
             (array['not_paid', 'paid', 'cancelled'])[1 + n % 3], 'Fast Track', 'Fast Track', 'Test', 'bulk-' || n, 1
      from generate_series(1, 30) n`);

    expect(await expectTotalsToMatchRecount(db())).toEqual({ customers: 2, orders: 32, revenue: 2200 + 1100 + 14_500 });
  });

  it("follow status changes through payments and changeOrderStatus, and ignore updates of other columns", async () => {
    const paid = await book(db(), { pay: "paid" });
    await book(db(), { pay: "declined" });
    const cancelled = await book(db());
    await changeOrderStatus(db(), { orderId: cancelled.id, to: "cancelled", actor: ADMIN });
    await changeOrderStatus(db(), { orderId: paid.id, to: "refunded", actor: ADMIN });
    const completed = await book(db(), { pay: "paid" });
    await changeOrderStatus(db(), { orderId: completed.id, to: "completed", actor: CUSTOMER_ACTOR });
    await db().update(orders).set({ airport: "Paris Orly - ORY" });

    expect(await expectTotalsToMatchRecount(db())).toEqual({ customers: 4, orders: 4, revenue: completed.amount });

    // A change of amount or currency moves money between the totals too.
    await db().update(orders).set({ amount: 9999, currency: "GBP" }).where(eq(orders.id, completed.id));
    expect(await expectTotalsToMatchRecount(db())).toMatchObject({ revenue: 9999 });
  });

  it("follow the retention job's deletions and an erasure", async () => {
    await book(db(), { email: "stale@example.com", createdAt: subDays(new Date(), 3) });
    await book(db(), { email: "stale@example.com", createdAt: subDays(new Date(), 4) });
    await book(db(), { email: "kept@example.com", pay: "paid" });
    await book(db(), { email: "erased@example.com", pay: "paid" });
    await book(db(), { email: "erased@example.com" });
    await expectTotalsToMatchRecount(db());

    const retention = await runRetention(db(), { now: new Date() });
    // One customer per address: stale@ was one customer, with two orders.
    expect(retention).toMatchObject({ ran: true, counts: { unpaidOrders: 2, customersDeleted: 1 } });
    expect(await expectTotalsToMatchRecount(db())).toMatchObject({ customers: 2, orders: 3 });

    const erasure = await erasePersonalData(db(), "erased@example.com", {
      actor: SYSTEM_ACTOR,
      origin: "https://site.test",
    });
    // erased@'s one customer keeps its paid order, anonymised; its unpaid order goes.
    expect(erasure).toMatchObject({ erased: true, counts: { ordersDeleted: 1, customersDeleted: 0 } });
    expect(await expectTotalsToMatchRecount(db())).toMatchObject({ customers: 2, orders: 2 });
  });

  it("follow memberships and their history through trials, cancellations, the billing job, changes and deletions", async () => {
    for (const email of ["one@example.com", "two@example.com", "three@example.com"]) {
      await book(db(), { email, pay: "paid" });
    }
    expect(await expectMembershipFiguresToMatchRecount(db())).toEqual({
      members: expect.arrayContaining([
        {
          status: "trialing",
          members: 3,
          byPlan: [
            { plan: "medium", members: 3 },
            { plan: "premium", members: 0 },
          ],
        },
      ]),
      recurring: [{ currency: "EUR", amount: 3 * 4900 }],
    });

    const [one, two, three] = await db().select().from(memberships).orderBy(asc(memberships.email));
    const now = new Date();
    await cancelMembership(db(), { membershipId: three!.id, actor: CUSTOMER_ACTOR, now, origin: ORIGIN });
    expect((await expectMembershipFiguresToMatchRecount(db())).recurring).toEqual([
      { currency: "EUR", amount: 2 * 4900 },
    ]);

    // The trials end: two first fees are charged, the cancelled trial ends uncharged.
    const billed = await runBilling(db(), sandboxGateway, { now: addDays(now, 4), origin: ORIGIN });
    expect(billed.counts).toMatchObject({ charged: 2, cancelledAtPeriodEnd: 1 });
    expect(membersOf(await expectMembershipFiguresToMatchRecount(db()))).toEqual({ active: 2, cancelled: 1 });

    await cancelMembership(db(), {
      membershipId: one!.id,
      atOnce: true,
      actor: ADMIN,
      now: addDays(now, 5),
      origin: ORIGIN,
    });
    await db()
      .update(memberships)
      .set({ currency: "GBP", price: 7900, plan: "premium" })
      .where(eq(memberships.id, two!.id));
    expect(await expectMembershipFiguresToMatchRecount(db())).toEqual({
      members: expect.arrayContaining([
        {
          status: "active",
          members: 1,
          byPlan: [
            { plan: "medium", members: 0 },
            { plan: "premium", members: 1 },
          ],
        },
        expect.objectContaining({ status: "cancelled", members: 2 }),
      ]),
      recurring: [{ currency: "GBP", amount: 7900 }],
    });

    // A membership never charged has no invoice to keep it: deleting it takes its history along.
    await db().delete(memberships).where(eq(memberships.id, three!.id));
    expect(membersOf(await expectMembershipFiguresToMatchRecount(db()))).toEqual({ active: 1, cancelled: 1 });
  });

  it("follow fees and refunds through the billing job, refunds of orders and fees, updates and deletions", async () => {
    const { invoice, orderId } = await paidMember(db());
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    const fee = invoice.amount;
    expect(await expectRevenueToMatchRecount(db())).toEqual([
      { currency: "EUR", fastTracks: order!.amount, fees: fee, refunds: 0, net: order!.amount + fee },
    ]);

    const refund = (key: string, amount: number, confirmed?: boolean) => ({
      amount,
      reason: "Test",
      idempotencyKey: key,
      confirmed,
    });
    // Part of the order, then the whole fee, then the rest of the order: the order and the invoice
    // end 'refunded' and stay in the gross figures, each refund taken off once.
    await refundOrder(db(), sandboxGateway, { orderId, refund: refund("order-1", 500), actor: ADMIN });
    expect(await expectRevenueToMatchRecount(db())).toEqual([
      { currency: "EUR", fastTracks: order!.amount, fees: fee, refunds: 500, net: order!.amount + fee - 500 },
    ]);
    expect(
      await refundInvoice(db(), sandboxGateway, {
        invoiceId: invoice.id,
        refund: refund("fee-1", fee, true),
        actor: ADMIN,
      }),
    ).toMatchObject({ kind: "refunded" });
    expect(
      await refundOrder(db(), sandboxGateway, {
        orderId,
        refund: refund("order-2", order!.amount - 500, true),
        actor: ADMIN,
      }),
    ).toMatchObject({ kind: "refunded" });
    const [refundedOrder] = await db().select().from(orders).where(eq(orders.id, orderId));
    const [refundedInvoice] = await db().select().from(invoices).where(eq(invoices.id, invoice.id));
    expect([refundedOrder!.status, refundedInvoice!.status]).toEqual(["refunded", "refunded"]);
    expect(await expectRevenueToMatchRecount(db())).toEqual([
      { currency: "EUR", fastTracks: order!.amount, fees: fee, refunds: order!.amount + fee, net: 0 },
    ]);

    // A change of currency or status moves the money; a refund deleted takes it back.
    await db().update(refunds).set({ currency: "GBP" }).where(eq(refunds.idempotencyKey, "order-1"));
    await db().update(invoices).set({ status: "void" }).where(eq(invoices.id, invoice.id));
    expect(await expectRevenueToMatchRecount(db())).toEqual([
      { currency: "EUR", fastTracks: order!.amount, fees: 0, refunds: order!.amount - 500 + fee, net: -fee + 500 },
      { currency: "GBP", fastTracks: 0, fees: 0, refunds: 500, net: -500 },
    ]);
    await db().delete(refunds).where(eq(refunds.idempotencyKey, "order-1"));
    expect((await expectRevenueToMatchRecount(db())).map(({ currency }) => currency)).toEqual(["EUR"]);

    await emptyBookingTables(db());
    expect(await expectRevenueToMatchRecount(db())).toEqual([]);
  });

  it("follow members' free accesses and the plans in the memberships' history through inserts, updates and deletions", async () => {
    const customer = await insertCustomer(db(), "Mia Jansen");
    const medium = await insertMembership(db(), { customerId: customer.id, status: "active" });
    const premium = await insertMembership(db(), { customerId: customer.id, status: "active", plan: "premium" });
    const freeAccesses = async () => {
      const result = await db().execute(sql`select coalesce(sum(free_accesses), 0) as used from order_days`);
      return Number((result as unknown as { rows: { used: string | number }[] }).rows[0]!.used);
    };
    // Six bookings on each allowance (one access each on Medium, two on Premium), and one whose free
    // accesses name no membership: not counted.
    await db().execute(sql`
      insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                          idempotency_key, adults, allowance_membership_id, free_accesses, created_at)
      select 'FT-0-FREE' || n, ${customer.id}, 0, 'EUR', (array['not_paid', 'paid', 'completed'])[1 + n % 3],
             'Fast Track', 'Fast Track', 'Test', 'free-' || n, 2,
             case when n = 13 then null when n % 2 = 0 then ${medium.id}::uuid else ${premium.id}::uuid end,
             1 + n % 2, now() - n * interval '5 hours'
      from generate_series(1, 13) n`);
    for (const [from, to, plan, fromPlan] of [
      [null, "trialing", "medium", null],
      ["trialing", "active", "medium", null],
      ["active", "active", "premium", "medium"],
      ["active", "active", "medium", "premium"],
      ["active", "active", "medium", null],
    ] as const) {
      await insertMembershipEvent(db(), { membershipId: medium.id, from, to, plan, fromPlan, at: new Date() });
    }
    await insertMembershipEvent(db(), {
      membershipId: premium.id,
      from: null,
      to: "trialing",
      plan: "premium",
      at: new Date(),
    });
    await expectTotalsToMatchRecount(db());
    expect(await freeAccesses()).toBe(6 + 12);

    // A status change moves the accesses between rows; the Premium membership's deletion takes its
    // history along and leaves its bookings naming no membership; an entry moved a day back.
    await db().update(orders).set({ status: "cancelled" }).where(eq(orders.allowanceMembershipId, medium.id));
    await db().delete(memberships).where(eq(memberships.id, premium.id));
    await db().execute(sql`
      update membership_events set created_at = created_at - interval '1 day', plan = 'premium', from_plan = 'medium'
      where from_status = 'trialing' and to_status = 'active'`);
    await expectTotalsToMatchRecount(db());
    expect(await freeAccesses()).toBe(6);
  });

  it("start again from zero when the tables are truncated", async () => {
    await book(db(), { pay: "paid" });
    await emptyBookingTables(db());
    expect(await expectTotalsToMatchRecount(db())).toEqual({ customers: 0, orders: 0, revenue: 0 });
  });

  it("follow the seed script's batches", async () => {
    await seedDatabase(db(), { orders: 1_500, customers: 600, batchSize: 500 });
    expect(await expectTotalsToMatchRecount(db())).toMatchObject({ customers: 600, orders: 1_500 });
    // Every refunded order has its refund, of all it cost: none left in the fast tracks with nothing taken off.
    const refunded = await db().execute(sql`
      select count(*) filter (where r.amount is distinct from o.amount) as unmatched, count(*) as refunded
      from orders o left join refunds r on r.order_id = o.id and r.status = 'done' where o.status = 'refunded'`);
    const [counts] = (refunded as unknown as { rows: Record<"unmatched" | "refunded", string | number>[] }).rows;
    expect(Number(counts!.unmatched)).toBe(0);
    expect(Number(counts!.refunded)).toBeGreaterThan(0);
  });

  it("stay exact under ten concurrent bookings", async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        createBooking(db(), {
          booking: bookingInput({ email: `traveller${index}@example.com` }),
          currency: CURRENCY_CODES[index % CURRENCY_CODES.length]!,
          userId: null,
        }),
      ),
    );
    expect(await expectTotalsToMatchRecount(db())).toEqual({ customers: 10, orders: 10, revenue: 0 });
  });

  it("stay exact, and deadlock nothing, when bookings, payments and a retention run overlap", async () => {
    await Promise.all([1, 2, 3].map((days) => book(db(), { createdAt: subDays(new Date(), days + 2) })));
    const toPay = [await book(db()), await book(db()), await book(db())];

    const [retention] = await Promise.all([
      runRetention(db(), { now: new Date() }),
      ...toPay.map((order) => payByCard(db(), order.id, "paid")),
      ...Array.from({ length: 8 }, (_, index) =>
        createBooking(db(), {
          booking: bookingInput({ email: `late${index}@example.com` }),
          currency: "EUR",
          userId: null,
        }),
      ),
    ]);

    expect(retention).toMatchObject({ ran: true, counts: { unpaidOrders: 3 } });
    const stats = await expectTotalsToMatchRecount(db());
    expect(stats).toEqual({ customers: 11, orders: 11, revenue: toPay.reduce((sum, order) => sum + order.amount, 0) });
  });
});
