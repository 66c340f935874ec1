import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MEMBERSHIP_STATUSES, ORDER_STATUSES } from "~/db/schema";
import { cliTestDatabase, DATA_DIR_IN_USE, runNpmScript } from "../../support/integration/npm-script";
import { expectMembershipFiguresToMatchRecount } from "../../support/integration/totals-recount";

const database = cliTestDatabase();

const seedCli = (...args: string[]) => runNpmScript("db:seed", args, database.env());

async function countOf(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db().execute(query)) as unknown as { rows: { count: number | string }[] };
  return Number(result.rows[0]!.count);
}

async function totals() {
  return {
    orders: await countOf(sql`select count(*) from orders`),
    customers: await countOf(sql`select count(*) from customers`),
    distinctOrderNumbers: await countOf(sql`select count(distinct order_number) from orders`),
    memberships: await countOf(sql`select count(*) from memberships`),
    contactMessages: await countOf(sql`select count(*) from contact_messages`),
    unsubscribeRequests: await countOf(sql`select count(*) from unsubscribe_requests`),
  };
}

async function expectConsistentData() {
  const known = sql.join(
    ORDER_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  expect(
    await countOf(
      sql`select count(*) from customers c where not exists (select from orders o where o.customer_id = c.id)`,
    ),
  ).toBe(0);
  expect(await countOf(sql`select count(*) from orders where status not in (${known})`)).toBe(0);
  expect(await countOf(sql`select count(*) from orders where order_number !~ '^FT-[0-9]{13}-[A-Z]{6}$'`)).toBe(0);
  // Exactly one successful payment per paid, completed or refunded order, and none for the others.
  expect(
    await countOf(sql`
      select count(*) from orders o
      where (select count(*) from payments p where p.order_id = o.id and p.outcome = 'succeeded' and p.amount = o.amount)
            <> (case when o.status in ('paid', 'completed', 'refunded') then 1 else 0 end)`),
  ).toBe(0);
  // The history starts 'not_paid' and ends at the order's status.
  expect(
    await countOf(sql`
      select count(*) from orders o
      where (select to_status from order_events e where e.order_id = o.id order by e.created_at desc limit 1)
              <> o.status
         or not exists (select from order_events e where e.order_id = o.id and e.from_status is null and e.to_status = 'not_paid')`),
  ).toBe(0);
  expect(await countOf(sql`select count(*) from order_events where created_at > now()`)).toBe(0);
  expect(
    await countOf(sql`
      select count(*) from customers
      where email <> lower(email) or notes not like 'Airport: %' || chr(10) || 'Flight date: %' || chr(10) || 'Email: ' || email || chr(10) || 'Phone: %'`),
  ).toBe(0);
  await expectConsistentMemberships();
}

/** Memberships as the lifecycle leaves them: their customer's address, a history that ends at their status, invoices that match it. */
async function expectConsistentMemberships() {
  const known = sql.join(
    MEMBERSHIP_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  expect(await countOf(sql`select count(*) from memberships where status not in (${known})`)).toBe(0);
  expect(
    await countOf(sql`
      select count(*) from memberships m join customers c on c.id = m.customer_id
      where m.email is distinct from c.email or m.created_at < c.created_at or m.created_at > now()`),
  ).toBe(0);
  // The history starts with the trial and ends at the membership's status, never in the future.
  expect(
    await countOf(sql`
      select count(*) from memberships m
      where (select to_status from membership_events e where e.membership_id = m.id
             order by e.created_at desc, e.from_status is null limit 1) <> m.status
         or not exists (select from membership_events e where e.membership_id = m.id and e.from_status is null and e.to_status = 'trialing')`),
  ).toBe(0);
  expect(await countOf(sql`select count(*) from membership_events where created_at > now()`)).toBe(0);
  // One paid invoice per fee the billing job recorded as paid; an unpaid fee is open while past due.
  expect(
    await countOf(sql`
      select count(*) from memberships m
      where (select count(*) from invoices i where i.membership_id = m.id and i.status = 'paid' and i.amount = m.price)
            <> (select count(*) from membership_events e where e.membership_id = m.id and e.to_status = 'active' and e.actor_label = 'system')
         or (m.status = 'past_due') <> exists (select from invoices i where i.membership_id = m.id and i.status = 'open')`),
  ).toBe(0);
  // What still runs is paid up to a date to come; the billing job would find nothing overdue.
  expect(
    await countOf(sql`
      select count(*) from memberships
      where (status in ('trialing', 'active') and current_period_end <= now())
         or (status = 'past_due' and grace_ends_at <= now())
         or ((status in ('cancelled', 'ended')) <> (ended_at is not null))`),
  ).toBe(0);
  // Every paid fee has an invoice number; with the orders', each year's series runs 1, 2, 3… and its
  // row says where the next one starts, as if each had been drawn at payment.
  expect(await countOf(sql`select count(*) from invoices where (status = 'paid') <> (number is not null)`)).toBe(0);
  expect(
    await countOf(sql`
      with numbers as (
        select number as drawn from invoices where number is not null
        union all select invoice_number from orders where invoice_number is not null
      ), years as (
        select split_part(drawn, '-', 1)::int as year, count(*) as drawn, count(distinct drawn) as distinct_drawn,
               max(split_part(drawn, '-', 2)::int) as highest
        from numbers group by 1
      )
      select count(*) from years y left join document_number_series s on s.kind = 'invoice' and s.year = y.year
      where y.distinct_drawn <> y.drawn or y.highest <> y.drawn or s.last is distinct from y.drawn`),
  ).toBe(0);
  await expectMembershipFiguresToMatchRecount(database.db());
}

describe(`npm run db:seed on ${database.kind}`, () => {
  it("fills the database, then adds more on a second run without collisions", { timeout: 180_000 }, async () => {
    if (database.kind === "pglite") {
      const refused = await seedCli("--orders", "200");
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(DATA_DIR_IN_USE);
    }
    await database.release();
    const first = await seedCli("--orders", "200");
    expect(first.code).toBe(0);
    expect(first.output).toContain("Seeding 200 orders for 100 customers, 50 of them members ...");
    expect(first.output).toMatch(/Done in [\d.]+ s/);
    expect(first.output).not.toContain("already holds");

    await database.reopen();
    expect(await totals()).toEqual({
      orders: 200,
      customers: 100,
      distinctOrderNumbers: 200,
      memberships: 50,
      contactMessages: 2,
      unsubscribeRequests: 1,
    });
    await expectConsistentData();
    await database.release();

    const second = await seedCli("--orders", "200", "--customers", "50", "--memberships", "50");
    expect(second.code).toBe(0);
    expect(second.output).toContain(
      "The database already holds 200 orders and 100 customers: adding to them (the new order numbers do not collide with theirs).",
    );
    await database.reopen();
    expect(await totals()).toEqual({
      orders: 400,
      customers: 150,
      distinctOrderNumbers: 400,
      memberships: 100,
      contactMessages: 4,
      unsubscribeRequests: 2,
    });
    await expectConsistentData();
    // Over a hundred memberships, the lifecycle's usual outcomes are all there.
    const statuses = (await database.db().execute(sql`select distinct status from memberships`)) as unknown as {
      rows: { status: string }[];
    };
    expect(statuses.rows.map((row) => row.status)).toEqual(expect.arrayContaining(["active", "cancelled", "ended"]));
  });

  it("refuses arguments it cannot use, and changes nothing", { timeout: 120_000 }, async () => {
    const before = await totals();
    await database.release();
    const usage = "Usage: npm run db:seed -- [--orders N] [--customers N] [--memberships N]";
    const zero = await seedCli("--orders", "0");
    expect(zero.code).toBe(1);
    expect(zero.output).toContain(`--orders needs a whole number from 1 to 20,000,000, not 0.\n${usage}`);
    const unknown = await seedCli("--order", "10");
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.output).toContain(`Unknown argument --order.\n${usage}`);
    expect(await seedCli("--orders", "10", "--customers", "11")).toEqual({
      code: 1,
      output: "--customers (11) may not exceed --orders (10): every customer has at least one order.\n",
    });
    expect(await seedCli("--orders", "10", "--memberships", "6")).toEqual({
      code: 1,
      output: "--memberships (6) may not exceed the customers (5): a membership belongs to one customer.\n",
    });
    const negative = await seedCli("--memberships", "-1");
    expect(negative.code).toBe(1);
    expect(negative.output).toContain(`--memberships needs a whole number from 0 to 20,000,000, not -1.\n${usage}`);
    await database.reopen();
    expect(await totals()).toEqual(before);
  });
});
