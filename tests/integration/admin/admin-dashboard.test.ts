import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { invoices, memberships, orders, refunds } from "~/db/schema";
import type { PagePosition } from "~/features/admin/keyset.server";
import { recentOrders } from "~/features/admin/orders/orders-admin.server";
import { dashboardTotals } from "~/features/admin/dashboard/dashboard-totals.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { logger } from "~/logger.server";
import { loader as adminLoader } from "~/routes/admin";
import { databaseWithAdmin, pageRequest } from "../../support/integration/requests";
import { insertInvoice, insertMembership } from "../../support/integration/memberships-fixtures";
import { insertCustomer, insertOrder, insertRefund } from "../../support/integration/orders-fixtures";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();

afterEach(async () => {
  vi.restoreAllMocks();
  await db().delete(refunds);
  await db().delete(invoices);
  await db().delete(memberships);
  await db().delete(orders);
});

function dashboard(search = "") {
  return routeResult(() => adminLoader(routeArgs(pageRequest(`/admin${search}`, { cookie: admin().cookie }))));
}

describe(`the admin dashboard on ${testDatabaseKind()}`, () => {
  it("counts customers and orders, and sums revenue over paid and completed orders only", async () => {
    const before = await dashboardTotals(db());
    const customer = await insertCustomer(db(), "Grace Hopper");
    await insertCustomer(db(), "Guest Without Orders");
    await insertOrder(db(), { customerId: customer.id, amount: 2200, status: "paid" });
    await insertOrder(db(), { customerId: customer.id, amount: 1100, status: "completed", currency: "USD" });
    for (const status of ["not_paid", "cancelled", "refunded"] as const) {
      await insertOrder(db(), { customerId: customer.id, amount: 9900, status });
    }

    const result = await dashboard();
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({
      healthy: true,
      toast: null,
      stats: { customers: before.customers + 2, orders: 5, revenue: 3300 },
    });
  });

  it("keeps the spec's revenue card, and shows under it fast tracks, fees, refunds and net per currency, never adding currencies", async () => {
    const { id: customerId } = await insertCustomer(db(), "Comptable SARL");
    const dollars = [];
    for (let index = 0; index < 3; index++) {
      dollars.push(await insertOrder(db(), { customerId, amount: 3300, status: "paid", currency: "USD" }));
    }
    await insertOrder(db(), { customerId, amount: 2200, status: "completed", currency: "EUR" });
    await insertOrder(db(), { customerId, amount: 5500, status: "cancelled", currency: "EUR" });
    // Paid, then refunded in full: a sale, and its refund taken off once.
    const refunded = await insertOrder(db(), { customerId, amount: 1100, status: "refunded", currency: "GBP" });
    await insertOrder(db(), { customerId, amount: 4400, status: "not_paid", currency: "GBP" });
    const membership = await insertMembership(db(), { customerId, status: "active" });
    await insertInvoice(db(), { membershipId: membership.id, amount: 4900 });
    await insertInvoice(db(), { membershipId: membership.id, amount: 4900, status: "open" });
    // $11 back on one $33 order, which stays paid; a refund the gateway has not answered yet gives nothing back.
    await insertRefund(db(), { orderId: dollars[0]!.id, amount: 1100, currency: "USD" });
    await insertRefund(db(), { orderId: refunded.id, amount: 1100, currency: "GBP" });
    await insertRefund(db(), { orderId: dollars[1]!.id, amount: 3300, currency: "USD", status: "pending" });

    const result = await dashboard();
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({
      toast: null,
      // The spec's card, as the spec words it: paid or completed orders, every currency at rate 1.
      stats: { orders: 7, revenue: 3 * 3300 + 2200 },
      revenue: [
        { currency: "USD", fastTracks: 3 * 3300, fees: 0, refunds: 1100, net: 3 * 3300 - 1100 },
        { currency: "EUR", fastTracks: 2200, fees: 4900, refunds: 0, net: 2200 + 4900 },
        { currency: "GBP", fastTracks: 1100, fees: 0, refunds: 1100, net: 0 },
      ],
    });
  });

  it("counts members per status, and the fees charged next quarter per currency, never adding currencies", async () => {
    const { id: customerId } = await insertCustomer(db(), "Membres SA");
    for (const membership of [
      { status: "trialing", currency: "EUR" },
      { status: "active", currency: "EUR" },
      // Cancelled for the period's end: it will not be charged again.
      { status: "active", currency: "EUR", cancelAtPeriodEnd: true },
      { status: "trialing", currency: "EUR", cancelAtPeriodEnd: true },
      { status: "active", currency: "GBP", plan: "premium", price: 7900 },
      { status: "active", currency: "USD", price: 4900 },
      // Not charged at the period's end: retried until the grace ends, or over.
      { status: "past_due", currency: "USD" },
      { status: "cancelled", currency: "USD" },
      { status: "ended", currency: "GBP" },
    ] as const) {
      await insertMembership(db(), { customerId, ...membership });
    }

    const result = await dashboard();
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({
      toast: null,
      members: {
        members: [
          { status: "trialing", members: 2 },
          { status: "active", members: 4 },
          { status: "past_due", members: 1 },
          { status: "cancelled", members: 1 },
          { status: "ended", members: 1 },
        ],
        recurring: [
          { currency: "USD", amount: 4900 },
          { currency: "EUR", amount: 2 * 4900 },
          { currency: "GBP", amount: 7900 },
        ],
      },
    });
  });

  it("shows no recurring fee, and every status at zero, without members", async () => {
    const result = await dashboard();
    expect((result.data as { members: unknown }).members).toEqual({
      members: ["trialing", "active", "past_due", "cancelled", "ended"].map((status) => ({
        status,
        members: 0,
        byPlan: [
          { plan: "medium", members: 0 },
          { plan: "premium", members: 0 },
        ],
      })),
      recurring: [],
    });
  });

  it("lists the newest orders with their customer, 25 a page, and pages through all of them by keyset", async () => {
    const customer = await insertCustomer(db(), "Katherine Johnson");
    const sameInstant = new Date("2025-03-01T10:00:00.123456Z");
    for (let index = 0; index < 60; index++) {
      // Every fifth order shares its creation instant with others, as concurrent bookings do.
      const createdAt = index % 5 === 0 ? sameInstant : new Date(Date.UTC(2025, 2, 1, 9, 0, index));
      await insertOrder(db(), { customerId: customer.id, amount: 1100 + index, createdAt });
    }
    const expected = (
      (await db().execute(sql`select id from orders order by created_at desc, id desc`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows.map((row) => row.id);

    const first = await dashboard();
    const firstPage = (first.data as { orders: Awaited<ReturnType<typeof recentOrders>> }).orders;
    expect(firstPage.rows).toHaveLength(25);
    expect(firstPage.rows[0]).toMatchObject({ customerName: "Katherine Johnson", serviceType: "Fast Track" });
    expect(firstPage.previous).toBeNull();

    const seen: string[] = [];
    const pages: Awaited<ReturnType<typeof recentOrders>>[] = [];
    let position: PagePosition = null;
    for (;;) {
      const page = await recentOrders(db(), position);
      pages.push(page);
      seen.push(...page.rows.map((row) => row.id));
      if (!page.next) break;
      position = { after: page.next };
    }
    expect(pages.map((page) => page.rows.length)).toEqual([25, 25, 10]);
    expect(seen).toEqual(expected);

    const back = await recentOrders(db(), { before: pages[2]!.previous! });
    expect(back.rows.map((row) => row.id)).toEqual(pages[1]!.rows.map((row) => row.id));
    const backToFirst = await recentOrders(db(), { before: back.previous! });
    expect(backToFirst.rows.map((row) => row.id)).toEqual(pages[0]!.rows.map((row) => row.id));
    expect(backToFirst.previous).toBeNull();
    expect(backToFirst.next).not.toBeNull();
  });

  it("treats an unreadable cursor as the first page", async () => {
    const customer = await insertCustomer(db());
    await insertOrder(db(), { customerId: customer.id, amount: 500 });
    const result = await dashboard("?after=2025-01-01'%3B%20drop%20table%20orders");
    expect((result.data as { orders: { rows: unknown[] } }).orders.rows).toHaveLength(1);
  });

  it("still shows the page, with the error toast, when the data cannot be loaded, and logs it", async () => {
    const logged = vi.spyOn(logger, "error");
    await db().execute(sql`alter table orders rename to orders_away`);
    try {
      const result = await dashboard();
      expect(result.status).toBe(200);
      expect(result.data).toMatchObject({
        stats: null,
        revenue: null,
        members: null,
        orders: null,
        toast: { type: "error", title: "Erreur lors du chargement des données" },
      });
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), expect.any(String));
    } finally {
      await db().execute(sql`alter table orders_away rename to orders`);
    }
  });

  it("takes a failed role lookup as 'not an admin', logged as 'Error checking admin role'", async () => {
    const logged = vi.spyOn(logger, "error");
    await db().execute(sql`alter table user_roles rename to user_roles_away`);
    try {
      const result = await routeResult(() => requireAdmin(pageRequest("/admin", { cookie: admin().cookie })));
      expect(result).toMatchObject({ status: 302, location: "/" });
      expect(logged).toHaveBeenCalledWith(expect.anything(), "Error checking admin role");
    } finally {
      await db().execute(sql`alter table user_roles_away rename to user_roles`);
    }
  });
});
