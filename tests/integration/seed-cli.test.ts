import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "~/db/schema";
import { cliTestDatabase, DATA_DIR_IN_USE, runNpmScript } from "../support/integration/npm-script";

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
  // The history starts 'Not Paid' and ends at the order's status.
  expect(
    await countOf(sql`
      select count(*) from orders o
      where (select to_status from order_events e where e.order_id = o.id order by e.created_at desc limit 1)
              <> o.status
         or not exists (select from order_events e where e.order_id = o.id and e.from_status is null and e.to_status = 'Not Paid')`),
  ).toBe(0);
  expect(await countOf(sql`select count(*) from order_events where created_at > now()`)).toBe(0);
  expect(
    await countOf(sql`
      select count(*) from customers
      where email <> lower(email) or notes not like 'Airport: %' || chr(10) || 'Flight date: %' || chr(10) || 'Email: ' || email || chr(10) || 'Phone: %'`),
  ).toBe(0);
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
    expect(first.output).toContain("Seeding 200 orders for 100 customers ...");
    expect(first.output).toMatch(/Done in [\d.]+ s/);
    expect(first.output).not.toContain("already holds");

    await database.reopen();
    expect(await totals()).toEqual({
      orders: 200,
      customers: 100,
      distinctOrderNumbers: 200,
      contactMessages: 2,
      unsubscribeRequests: 1,
    });
    await expectConsistentData();
    await database.release();

    const second = await seedCli("--orders", "200", "--customers", "50");
    expect(second.code).toBe(0);
    expect(second.output).toContain(
      "The database already holds 200 orders and 100 customers: adding to them (the new order numbers do not collide with theirs).",
    );
    await database.reopen();
    expect(await totals()).toEqual({
      orders: 400,
      customers: 150,
      distinctOrderNumbers: 400,
      contactMessages: 4,
      unsubscribeRequests: 2,
    });
    await expectConsistentData();
  });

  it("refuses arguments it cannot use, and changes nothing", { timeout: 120_000 }, async () => {
    const before = await totals();
    await database.release();
    const usage = "Usage: npm run db:seed -- [--orders N] [--customers N]";
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
    await database.reopen();
    expect(await totals()).toEqual(before);
  });
});
