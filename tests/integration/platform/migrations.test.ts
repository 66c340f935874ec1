import { readdirSync, readFileSync } from "node:fs";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { eq, is, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { PgTable as PgTableClass } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import * as schema from "~/db/schema";
import { customers, orders } from "~/db/schema";
import { insertCustomer, insertOrder, insertRefund } from "../../support/integration/orders-fixtures";
import {
  createEmptyPostgresDatabase,
  openTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from "../../support/test-database";
import { insertInvoice, insertMembership, insertMembershipEvent } from "../../support/integration/memberships-fixtures";
import {
  expectMembershipFiguresToMatchRecount,
  expectRevenueToMatchRecount,
  expectTotalsToMatchRecount,
} from "../../support/integration/totals-recount";

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTableClass));
const migrationFiles = readdirSync("drizzle").filter((file) => file.endsWith(".sql"));

let handle: TestDatabase;

beforeAll(async () => {
  handle = await openTestDatabase();
});

afterAll(async () => {
  await handle.destroy();
});

/** The statements of migration 0032 that fill `membership_days` and the free accesses of `order_days`. */
const latestDaysBackfill = () =>
  readFileSync("drizzle/0032_statistics_plan_and_free_access_days.sql", "utf8")
    .split("--> statement-breakpoint")
    // The statements that start a line with INSERT: the function bodies' inserts are indented.
    .filter((statement) => /^INSERT INTO "(membership|order)_days"/m.test(statement));

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await handle.db.execute(query)) as { rows: T[] };
  return result.rows;
}

describe(`migrations on ${testDatabaseKind()}`, () => {
  it("records every committed migration as applied", async () => {
    const applied = await rows<{ count: number | string }>(
      sql`select count(*) as count from drizzle.__drizzle_migrations`,
    );
    expect(Number(applied[0]!.count)).toBe(migrationFiles.length);
  });

  it("creates every table and column the Drizzle schema declares", async () => {
    const columns = await rows<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    const present = new Set(columns.map((column) => `${column.table_name}.${column.column_name}`));
    const declared = tables.flatMap((table) => {
      const config = getTableConfig(table);
      // Column names come out of the schema as written; the database got them in snake_case.
      return config.columns.map(
        (column) => `${config.name}.${column.keyAsName ? toSnakeCase(column.name) : column.name}`,
      );
    });
    expect(declared.length).toBeGreaterThan(50);
    expect(declared.filter((column) => !present.has(column))).toEqual([]);
  });

  it("writes and reads back an order through the schema, and refuses an unknown status", async () => {
    const [customer] = await handle.db
      .insert(customers)
      .values({ fullName: "Robert'); DROP TABLE orders;--", notes: "Airport: Lisbon Humberto Delgado - LIS" })
      .returning();
    const [order] = await handle.db
      .insert(orders)
      .values({
        orderNumber: "FT-1-ROUNDTRIP",
        customerId: customer!.id,
        amount: 3300,
        currency: "EUR",
        serviceType: "Fast Track",
        business: "Fast Track",
        site: "Test",
        idempotencyKey: "round-trip",
        flightDate: "2030-01-31",
        adults: 2,
        children: 1,
      })
      .returning();
    expect(order).toMatchObject({ status: "not_paid", amount: 3300, flightDate: "2030-01-31" });
    expect(order!.id).toMatch(/^[0-9a-f-]{36}$/);

    const [readBack] = await handle.db.select().from(customers);
    expect(readBack!.fullName).toBe("Robert'); DROP TABLE orders;--");

    await expect(
      handle.db.execute(sql`update orders set status = 'shipped' where id = ${order!.id}`),
    ).rejects.toThrow();
  });

  it("gives customers booked before the e-mail column the address on their notes' e-mail line", async () => {
    const backfill = readFileSync("drizzle/0003_back_office.sql", "utf8")
      .split("--> statement-breakpoint")
      .find((statement) => statement.includes('UPDATE "customers"'))!;
    const [booked] = await handle.db
      .insert(customers)
      .values({
        fullName: "Old Booking",
        notes: "Airport: Paris Orly - ORY\nEmail: Old.Booking@Example.com\nPhone: 1",
      })
      .returning();
    const [unnamed] = await handle.db.insert(customers).values({ fullName: "No notes" }).returning();

    await handle.db.execute(sql.raw(backfill));

    const emails = await rows<{ id: string; email: string | null }>(sql`select id, email from customers`);
    expect(emails.find((row) => row.id === booked!.id)?.email).toBe("old.booking@example.com");
    expect(emails.find((row) => row.id === unnamed!.id)?.email).toBeNull();
  });

  it("fills the dashboard totals from the orders and customers already there", async () => {
    const backfill = readFileSync("drizzle/0004_dashboard_totals.sql", "utf8")
      .split("--> statement-breakpoint")
      // The statements that start a line with INSERT: the function bodies' inserts are indented.
      .filter((statement) => /^INSERT INTO "(order|customer)_totals"/m.test(statement));
    expect(backfill).toHaveLength(2);
    const customer = await insertCustomer(handle.db, "Booked Before The Totals");
    await insertOrder(handle.db, { customerId: customer.id, amount: 2200, status: "paid" });
    await insertOrder(handle.db, { customerId: customer.id, amount: 1100, status: "paid", currency: "GBP" });
    await insertOrder(handle.db, { customerId: customer.id, amount: 3300 });
    await handle.db.execute(sql`truncate order_totals, customer_totals`);

    for (const statement of backfill) await handle.db.execute(sql.raw(statement));

    expect(await expectTotalsToMatchRecount(handle.db)).toMatchObject({ orders: 4, revenue: 3300 });
  });

  it("fills the statistics' daily figures from the orders already there, by Amsterdam day", async () => {
    const backfill = readFileSync("drizzle/0006_statistics_days.sql", "utf8")
      .split("--> statement-breakpoint")
      .filter((statement) => /^INSERT INTO "order_days"/m.test(statement));
    expect(backfill).toHaveLength(1);
    const customer = await insertCustomer(handle.db, "Booked Before The Daily Figures");
    // 23:30 UTC on 4 March is 00:30 on the 5th in Amsterdam.
    const lateEvening = new Date("2026-03-04T23:30:00Z");
    await insertOrder(handle.db, { customerId: customer.id, amount: 2345, status: "paid", createdAt: lateEvening });
    await insertOrder(handle.db, { customerId: customer.id, amount: 1100, airport: "Paris Orly - ORY" });
    await insertOrder(handle.db, {
      customerId: customer.id,
      amount: 3300,
      currency: "GBP",
      airport: "Paris Orly - ORY",
    });
    await handle.db.execute(sql`truncate order_days`);

    await handle.db.execute(sql.raw(backfill[0]!));

    await expectTotalsToMatchRecount(handle.db);
    const days = await rows<{ day: string }>(
      sql`select to_char(day, 'YYYY-MM-DD') as day from order_days where amount = 2345`,
    );
    expect(days).toEqual([{ day: "2026-03-05" }]);
  });

  it("fills the membership figures from the memberships and history already there", async () => {
    const backfill = readFileSync("drizzle/0012_membership_totals.sql", "utf8")
      .split("--> statement-breakpoint")
      .filter((statement) => /^INSERT INTO "membership_totals"/m.test(statement));
    // Migration 0032 counts the daily figures again, with their plans: its backfill is the one that fits the table now.
    backfill.push(...latestDaysBackfill().filter((statement) => statement.includes('INTO "membership_days"')));
    expect(backfill).toHaveLength(2);
    const customer = await insertCustomer(handle.db, "Member Before The Figures");
    // 23:30 UTC on 4 March is 00:30 on the 5th in Amsterdam.
    const lateEvening = new Date("2026-03-04T23:30:00Z");
    const trial = await insertMembership(handle.db, { customerId: customer.id, createdAt: lateEvening });
    await insertMembershipEvent(handle.db, { membershipId: trial.id, from: null, to: "trialing", at: lateEvening });
    await insertMembership(handle.db, { customerId: customer.id, status: "active", currency: "GBP", price: 7900 });
    await insertMembership(handle.db, { customerId: customer.id, status: "active", cancelAtPeriodEnd: true });
    await handle.db.execute(sql`truncate membership_totals, membership_days`);

    for (const statement of backfill) await handle.db.execute(sql.raw(statement));

    expect((await expectMembershipFiguresToMatchRecount(handle.db)).recurring).toEqual([
      { currency: "EUR", amount: 4900 },
      { currency: "GBP", amount: 7900 },
    ]);
    const days = await rows<{ day: string }>(sql`select to_char(day, 'YYYY-MM-DD') as day from membership_days`);
    expect(days).toEqual([{ day: "2026-03-05" }]);
  });

  it("fills the daily figures' plans and members' free accesses from the history and bookings already there", async () => {
    const backfill = latestDaysBackfill();
    expect(backfill).toHaveLength(2);
    const customer = await insertCustomer(handle.db, "Member Before The Plan Figures");
    // 23:30 UTC on 4 March is 00:30 on the 5th in Amsterdam.
    const lateEvening = new Date("2026-03-04T23:30:00Z");
    const membership = await insertMembership(handle.db, { customerId: customer.id, status: "active" });
    for (const [from, to, plan, fromPlan] of [
      [null, "trialing", "medium", null],
      ["trialing", "active", "medium", null],
      ["active", "active", "premium", "medium"],
    ] as const) {
      await insertMembershipEvent(handle.db, {
        membershipId: membership.id,
        from,
        to,
        plan,
        fromPlan,
        at: lateEvening,
      });
    }
    for (const [status, allowance] of [
      ["paid", membership.id],
      ["paid", membership.id],
      ["cancelled", membership.id],
      ["paid", null],
    ] as const) {
      const order = await insertOrder(handle.db, {
        customerId: customer.id,
        amount: 0,
        status,
        createdAt: lateEvening,
      });
      await handle.db
        .update(orders)
        .set({ adults: 2, freeAccesses: 2, allowanceMembershipId: allowance })
        .where(eq(orders.id, order.id));
    }
    // As the migration found them: no daily membership figures (it deletes them), no free accesses counted.
    await handle.db.execute(sql`truncate membership_days`);
    await handle.db.execute(sql`update order_days set free_accesses = 0`);

    for (const statement of backfill) await handle.db.execute(sql.raw(statement));

    await expectTotalsToMatchRecount(handle.db);
    expect(
      await rows(sql`
        select to_char(day, 'YYYY-MM-DD') as day, plan, from_plan, sum(events)::int as events from membership_days
        where to_status = 'active' group by 1, 2, 3 order by 2`),
    ).toEqual([
      { day: "2026-03-05", plan: "medium", from_plan: null, events: 1 },
      { day: "2026-03-05", plan: "premium", from_plan: "medium", events: 1 },
    ]);
    expect(
      await rows(sql`
        select to_char(day, 'YYYY-MM-DD') as day, status, sum(free_accesses)::int as used from order_days
        where day = '2026-03-05' group by 1, 2 order by 2`),
    ).toEqual([
      { day: "2026-03-05", status: "cancelled", used: 2 },
      { day: "2026-03-05", status: "paid", used: 4 },
    ]);
  });

  it("fills the fees and refunds from the invoices and refunds already there, by Amsterdam day", async () => {
    const backfill = readFileSync("drizzle/0031_revenue_totals.sql", "utf8")
      .split("--> statement-breakpoint")
      .filter((statement) => /^INSERT INTO "revenue_(totals|days)"/m.test(statement));
    expect(backfill).toHaveLength(2);
    const customer = await insertCustomer(handle.db, "Paid Before The Revenue Figures");
    const membership = await insertMembership(handle.db, { customerId: customer.id, status: "active" });
    // 23:30 UTC on 4 March is 00:30 on the 5th in Amsterdam.
    const lateEvening = new Date("2026-03-04T23:30:00Z");
    const fee = await insertInvoice(handle.db, { membershipId: membership.id, amount: 4900, paidAt: lateEvening });
    await insertInvoice(handle.db, { membershipId: membership.id, amount: 4900, status: "open" });
    const order = await insertOrder(handle.db, {
      customerId: customer.id,
      amount: 3300,
      status: "paid",
      currency: "USD",
    });
    await insertRefund(handle.db, { orderId: order.id, amount: 1100, currency: "USD" });
    await insertRefund(handle.db, { orderId: order.id, amount: 1100, currency: "USD", status: "pending" });
    await insertRefund(handle.db, { invoiceId: fee.id, amount: 900, currency: "EUR", createdAt: lateEvening });
    await handle.db.execute(sql`truncate revenue_totals, revenue_days`);

    for (const statement of backfill) await handle.db.execute(sql.raw(statement));

    expect(await expectRevenueToMatchRecount(handle.db)).toEqual(
      expect.arrayContaining([
        { currency: "USD", fastTracks: expect.any(Number), fees: 0, refunds: 1100, net: expect.any(Number) },
        { currency: "EUR", fastTracks: expect.any(Number), fees: 4900, refunds: 900, net: expect.any(Number) },
      ]),
    );
    const days = await rows<{ day: string; kind: string }>(
      sql`select to_char(day, 'YYYY-MM-DD') as day, kind from revenue_days where currency = 'EUR' order by kind`,
    );
    expect(days).toEqual([
      { day: "2026-03-05", kind: "fee" },
      { day: "2026-03-05", kind: "fee_refund" },
    ]);
  });

  it("moves the stored statuses to one word each, with their history, figures and job counts", async () => {
    const migration = readFileSync("drizzle/0021_one_word_per_status.sql", "utf8").split("--> statement-breakpoint");
    const customer = await insertCustomer(handle.db, "Booked Before One Word");
    const unpaid = await insertOrder(handle.db, { customerId: customer.id, amount: 4321 });
    const member = await insertMembership(handle.db, { customerId: customer.id, status: "active" });
    const at = new Date("2026-02-28T23:30:00Z");
    await insertMembershipEvent(handle.db, { membershipId: member.id, from: null, to: "trialing", at });
    // The words before this migration, written as the site wrote them then.
    await handle.db.execute(sql.raw(migration.slice(0, 2).join(";")));
    await handle.db.execute(sql`update orders set status = 'Not Paid' where id = ${unpaid.id}`);
    await handle.db.execute(
      sql`insert into order_events (order_id, from_status, to_status, actor_label) values (${unpaid.id}, null, 'Not Paid', 'customer')`,
    );
    await handle.db.execute(sql`update memberships set status = 'canceled' where id = ${member.id}`);
    await insertMembershipEvent(handle.db, { membershipId: member.id, from: "active", to: "canceled" as never, at });
    const [run] = await rows<{ id: string }>(
      sql`insert into job_runs (job, outcome, started_at, counts)
          values ('billing', 'done', now(), '{"charged": 2, "canceledAtPeriodEnd": 3}') returning id`,
    );
    const before = await rows<{ status: string }>(sql`select status from order_totals where status = 'Not Paid'`);
    expect(before.length).toBeGreaterThan(0);

    // The rest of the migration, its constraints dropped above.
    for (const statement of migration.slice(2)) await handle.db.execute(sql.raw(statement));

    expect(await rows(sql`select status from orders where id = ${unpaid.id}`)).toEqual([{ status: "not_paid" }]);
    expect(await rows(sql`select to_status from order_events where order_id = ${unpaid.id}`)).toEqual([
      { to_status: "not_paid" },
    ]);
    expect(await rows(sql`select status from memberships where id = ${member.id}`)).toEqual([{ status: "cancelled" }]);
    expect(
      await rows(
        sql`select from_status, to_status from membership_events where membership_id = ${member.id} order by to_status`,
      ),
    ).toEqual([
      { from_status: "active", to_status: "cancelled" },
      { from_status: null, to_status: "trialing" },
    ]);
    const oldWords = sql`in ('Not Paid', 'canceled')`;
    expect(
      await rows(sql`select status from order_totals where status ${oldWords}
                     union all select status from order_days where status ${oldWords}
                     union all select status from membership_totals where status ${oldWords}
                     union all select to_status from membership_days where to_status ${oldWords}`),
    ).toEqual([]);
    await expectTotalsToMatchRecount(handle.db);
    await expectMembershipFiguresToMatchRecount(handle.db);
    expect(await rows(sql`select counts from job_runs where id = ${run!.id}`)).toEqual([
      { counts: { charged: 2, cancelledAtPeriodEnd: 3 } },
    ]);
    await expect(
      handle.db.execute(sql`update memberships set status = 'canceled' where id = ${member.id}`),
    ).rejects.toThrow();
  });

  it("merges the customers of one address into its oldest, every order and membership kept with its history", async () => {
    const migration = readFileSync("drizzle/0022_one_customer_per_address.sql", "utf8").split(
      "--> statement-breakpoint",
    );
    // The unique index and the lower-case check, dropped as if this migration had not run.
    await handle.db.execute(sql`drop index customers_email_unique`);
    await handle.db.execute(sql`alter table customers drop constraint customers_email_lower_case`);
    await handle.db.insert(schema.user).values({ id: "user-merge", name: "Mia", email: "mia@example.com" });
    const at = (day: number) => new Date(Date.UTC(2026, 1, day));
    const first = await insertCustomer(handle.db, "Mia Old", "mia@example.com", at(1));
    await handle.db
      .update(customers)
      .set({ userId: "user-merge" })
      .where(sql`id = ${first.id}`);
    const second = await insertCustomer(handle.db, "Mia Middle", "Mia@Example.com ", at(2));
    const newest = await insertCustomer(handle.db, "Mia New", "MIA@example.com", at(3));
    const other = await insertCustomer(handle.db, "Someone Else", "else@example.com", at(2));
    const erased = [
      await insertCustomer(handle.db, "Erased", null, at(1)),
      await insertCustomer(handle.db, "Erased", null, at(2)),
    ];
    const orderIds = [];
    for (const customer of [first, second, newest, other]) {
      orderIds.push((await insertOrder(handle.db, { customerId: customer.id, amount: 1100 })).id);
    }
    await handle.db.execute(
      sql`insert into order_events (order_id, from_status, to_status, actor_label) values (${orderIds[1]!}, null, 'not_paid', 'customer')`,
    );
    const member = await insertMembership(handle.db, { customerId: newest.id, email: "mia@example.com" });
    await handle.db.execute(sql`update customers set notes = 'Phone: new' where id = ${newest.id}`);

    for (const statement of migration) await handle.db.execute(sql.raw(statement));

    const merged = await rows<{ id: string; full_name: string; email: string; notes: string; user_id: string }>(
      sql`select id, full_name, email, notes, user_id from customers where email = 'mia@example.com'`,
    );
    expect(merged).toEqual([
      { id: first.id, full_name: "Mia New", email: "mia@example.com", notes: "Phone: new", user_id: "user-merge" },
    ]);
    const owners = await rows<{ id: string; customer_id: string }>(
      sql`select id, customer_id from orders where id in (${sql.join(orderIds, sql`, `)}) order by created_at`,
    );
    expect(owners.map((owner) => owner.customer_id).sort()).toEqual([first.id, first.id, first.id, other.id].sort());
    expect(await rows(sql`select count(*)::int as events from order_events where order_id = ${orderIds[1]!}`)).toEqual([
      { events: 1 },
    ]);
    expect(await rows(sql`select customer_id from memberships where id = ${member.id}`)).toEqual([
      { customer_id: first.id },
    ]);
    expect(
      await rows(
        sql`select count(*)::int as left from customers where id in (${erased[0]!.id}, ${erased[1]!.id}, ${other.id})`,
      ),
    ).toEqual([{ left: 3 }]);
    await expectTotalsToMatchRecount(handle.db);
    await expect(insertCustomer(handle.db, "Mia Again", "mia@example.com")).rejects.toThrow();
    await expect(insertCustomer(handle.db, "Mia Upper", "Mia@example.com")).rejects.toThrow();
  });

  it("numbers what was paid and refunded before invoice numbers, year by year in the order it happened", async () => {
    const migration = readFileSync("drizzle/0023_invoice_numbers.sql", "utf8").split("--> statement-breakpoint");
    // As before this migration: no series, no numbers, no triggers (the columns stay, empty, for the
    // fixtures that write every column; the migration's ADD COLUMNs are skipped below).
    for (const statement of [
      "drop trigger orders_invoice_number on orders",
      "drop trigger invoices_number on invoices",
      "drop trigger refunds_credit_note_number on refunds",
      "drop function orders_invoice_number, invoices_number, refunds_credit_note_number, next_document_number",
      "drop table document_number_series",
      'alter table orders drop constraint "orders_invoiceNumber_unique"',
      "alter table invoices drop constraint invoices_number_unique",
      'alter table refunds drop constraint "refunds_creditNoteNumber_unique"',
      "update orders set invoice_number = null",
      "update invoices set number = null",
      "update refunds set credit_note_number = null",
    ]) {
      await handle.db.execute(sql.raw(statement));
    }
    const customer = await insertCustomer(handle.db, "Numbered Before", null);
    const paidOn = async (iso: string) => {
      const order = await insertOrder(handle.db, { customerId: customer.id, amount: 1100, status: "paid" });
      await handle.db.execute(
        sql`insert into order_events (order_id, from_status, to_status, actor_label, created_at)
            values (${order.id}, 'not_paid', 'paid', 'customer', ${iso}::timestamptz)`,
      );
      return order.id;
    };
    const late2030 = await paidOn("2030-12-31T23:30:00Z");
    const early2030 = await paidOn("2030-06-01T10:00:00Z");
    const mid2030 = await paidOn("2030-09-01T10:00:00Z");
    const unpaid = await insertOrder(handle.db, { customerId: customer.id, amount: 1100 });
    const [refund] = await rows<{ id: string }>(
      sql`insert into refunds (order_id, amount, currency, reason, idempotency_key, status, provider_ref, actor_label, created_at)
          values (${mid2030}, 100, 'EUR', 'Late', 'before-numbers', 'done', 're_before', 'admin', '2030-10-01T10:00:00Z') returning id`,
    );

    for (const statement of migration.filter((text) => !text.includes("ADD COLUMN"))) {
      await handle.db.execute(sql.raw(statement));
    }

    const numbers = await rows<{ id: string; invoice_number: string | null }>(
      sql`select id, invoice_number from orders where id in (${late2030}, ${early2030}, ${mid2030}, ${unpaid.id})`,
    );
    const numberOf = (id: string) => numbers.find((row) => row.id === id)?.invoice_number;
    expect([numberOf(early2030), numberOf(mid2030), numberOf(late2030), numberOf(unpaid.id)]).toEqual([
      "2030-000001",
      "2030-000002",
      "2031-000001",
      null,
    ]);
    expect(await rows(sql`select credit_note_number from refunds where id = ${refund!.id}`)).toEqual([
      { credit_note_number: "C2030-000001" },
    ]);
    // The series goes on from there.
    expect(await rows(sql`select next_document_number('invoice', '2030-12-01T10:00:00Z') as next`)).toEqual([
      { next: "2030-000003" },
    ]);
  });

  it("keeps rate-limit counters out of the write-ahead log, and the totals' statements planned once", async () => {
    const [rateLimit] = await rows<{ relpersistence: string }>(
      sql`select relpersistence from pg_class where relname = 'rate_limit'`,
    );
    expect(rateLimit!.relpersistence).toBe("u");
    const functions = await rows<{ proname: string; language: string }>(sql`
      select proname, lanname as language from pg_proc join pg_language on pg_language.oid = prolang
      where proname in ('add_to_order_totals', 'add_to_order_days', 'add_to_membership_totals', 'add_to_membership_days',
                        'add_to_revenue')
      order by proname`);
    expect(functions).toEqual([
      { proname: "add_to_membership_days", language: "plpgsql" },
      { proname: "add_to_membership_totals", language: "plpgsql" },
      { proname: "add_to_order_days", language: "plpgsql" },
      { proname: "add_to_order_totals", language: "plpgsql" },
      { proname: "add_to_revenue", language: "plpgsql" },
    ]);
  });

  it("is a no-op when run again on an up-to-date database", async () => {
    if (testDatabaseKind() === "pglite") {
      // PGlite's in-memory database lives in one handle; reopen a persisted folder instead.
      const { mkdtempSync, rmSync } = await import("node:fs");
      const { tmpdir } = await import("node:os");
      const { join } = await import("node:path");
      const dataDir = mkdtempSync(join(tmpdir(), "pglite-migrate-"));
      try {
        const first = await openDatabase({ kind: "pglite", dataDir });
        await first.db.insert(customers).values({ fullName: "Kept across reopen" });
        await first.close();
        const second = await openDatabase({ kind: "pglite", dataDir });
        const kept = await second.db.select().from(customers);
        await second.close();
        expect(kept.map((customer) => customer.fullName)).toEqual(["Kept across reopen"]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      return;
    }
    const database = await createEmptyPostgresDatabase();
    try {
      const first = await openDatabase({ kind: "postgres", url: database.url });
      await first.db.insert(customers).values({ fullName: "Kept across reopen" });
      await first.close();
      // Two instances booting at once: the advisory lock makes one wait for the other.
      const [second, third] = await Promise.all([
        openDatabase({ kind: "postgres", url: database.url }),
        openDatabase({ kind: "postgres", url: database.url }),
      ]);
      const kept = await second.db.select().from(customers);
      await Promise.all([second.close(), third.close()]);
      expect(kept.map((customer) => customer.fullName)).toEqual(["Kept across reopen"]);
    } finally {
      await database.drop();
    }
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "migrates an empty database once when two instances boot at once",
    async () => {
      const database = await createEmptyPostgresDatabase();
      try {
        const [first, second] = await Promise.all([
          openDatabase({ kind: "postgres", url: database.url }),
          openDatabase({ kind: "postgres", url: database.url }),
        ]);
        const applied = (await first.db.execute(sql`select hash from drizzle.__drizzle_migrations`)) as {
          rows: { hash: string }[];
        };
        const locks = (await first.db.execute(
          sql`select count(*)::int as held from pg_locks where locktype = 'advisory'`,
        )) as {
          rows: { held: number }[];
        };
        await Promise.all([first.close(), second.close()]);
        expect(applied.rows).toHaveLength(migrationFiles.length);
        expect(new Set(applied.rows.map((row) => row.hash)).size).toBe(migrationFiles.length);
        expect(locks.rows[0]!.held).toBe(0);
      } finally {
        await database.drop();
      }
    },
  );
});
