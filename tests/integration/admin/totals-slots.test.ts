import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "~/db/schema";
import { DRIZZLE_CASING, type Database } from "~/db/client.server";
import { insertCustomer, insertOrder } from "../../support/integration/orders-fixtures";
import { expectTotalsToMatchRecount } from "../../support/integration/totals-recount";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";

/** A connection of its own, with the Drizzle handle the fixtures take. */
interface Connection {
  client: pg.Client;
  db: Database;
  pid: number;
}

/** The slots the summary rows of one customer and one order of `currency` are in. */
async function slotsOf(db: Database, currency: string) {
  const { rows } = (await db.execute(sql`
    select 'customer' as kind, slot from customer_totals where customers <> 0
    union all select 'order', slot from order_totals where currency = ${currency} and orders <> 0
    union all select 'day', slot from order_days where currency = ${currency} and orders <> 0`)) as unknown as {
    rows: { kind: string; slot: number }[];
  };
  return rows;
}

// Two transactions at once need two connections: PGlite has one.
describe.runIf(testDatabaseKind() === "postgres")("the summary tables' slots, on postgres", () => {
  let handle: TestDatabase;
  const connections: Connection[] = [];

  async function connect(): Promise<Connection> {
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    const connection = {
      client,
      db: drizzle(client, { schema, casing: DRIZZLE_CASING }) as unknown as Database,
      pid: rows[0]!.pid,
    };
    connections.push(connection);
    return connection;
  }

  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(async () => {
    await Promise.all(connections.map(({ client }) => client.end()));
    await handle?.destroy();
  });

  it("give two transactions at once slots of their own, even on backends whose pids once shared one", async () => {
    // Nine backends: two of them have the same pid modulo 8, the slot each used to add to.
    const opened = await Promise.all(Array.from({ length: 9 }, connect));
    const first = opened.find((one) => opened.some((other) => other !== one && other.pid % 8 === one.pid % 8))!;
    const second = opened.find((other) => other !== first && other.pid % 8 === first.pid % 8)!;

    await first.client.query("begin");
    await insertOrder(first.db, {
      customerId: (await insertCustomer(first.db, "First")).id,
      amount: 1000,
      currency: "GBP",
    });
    // Waiting for the first's summary rows would time out here, as it did on the shared slot.
    await second.client.query("begin");
    await second.client.query("set local lock_timeout = '1s'");
    await insertOrder(second.db, {
      customerId: (await insertCustomer(second.db, "Second")).id,
      amount: 2000,
      currency: "USD",
    });

    const firstSlots = await slotsOf(first.db, "GBP");
    const secondSlots = await slotsOf(second.db, "USD");
    await Promise.all([first.client.query("commit"), second.client.query("commit")]);

    // Each transaction adds every row to the one slot it claimed, and the two slots differ.
    const kinds = ["customer", "day", "order"];
    expect(firstSlots.map(({ kind }) => kind).sort()).toEqual(kinds);
    expect(secondSlots.map(({ kind }) => kind).sort()).toEqual(kinds);
    const firstSlot = new Set(firstSlots.map(({ slot }) => slot));
    const secondSlot = new Set(secondSlots.map(({ slot }) => slot));
    expect([firstSlot.size, secondSlot.size]).toEqual([1, 1]);
    expect([...firstSlot][0]).not.toBe([...secondSlot][0]);
    expect(await expectTotalsToMatchRecount(handle.db)).toEqual({ customers: 2, orders: 2, revenue: 0 });
  });

  it("still count a booking when every slot is claimed, sharing one", async () => {
    const [holder, writer] = await Promise.all([connect(), connect()]);
    const before = await expectTotalsToMatchRecount(handle.db);
    await holder.client.query("begin");
    await holder.client.query("select pg_advisory_xact_lock(11, slot) from generate_series(0, 63) as slot");
    await insertOrder(writer.db, { customerId: (await insertCustomer(writer.db, "Third")).id, amount: 500 });
    await holder.client.query("commit");
    expect(await expectTotalsToMatchRecount(handle.db)).toEqual({
      ...before,
      customers: before.customers + 1,
      orders: before.orders + 1,
    });
  });
});
