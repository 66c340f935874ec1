// How the admin dashboard's queries cope with a million orders, on PostgreSQL:
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx --tsconfig tsconfig.app.json bench/admin-dashboard.ts
// Creates a database of its own beside BENCH_DATABASE_URL, fills it, times the queries, drops it.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "~/db/client.server";
import { recentOrders, type PagePosition } from "~/features/admin/orders-admin.server";
import { dashboardStats } from "~/features/admin/stats.server";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL to a PostgreSQL server this may create a database on.");

const name = `bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const handle = await openDatabase({ kind: "postgres", url: url.toString() });

async function time<T>(label: string, work: () => Promise<T>): Promise<T> {
  const runs: number[] = [];
  let result!: T;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    result = await work();
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(40)} median ${runs[2]!.toFixed(1)} ms   worst ${runs[4]!.toFixed(1)} ms`);
  return result;
}

try {
  console.log(`filling ${ORDERS.toLocaleString("en")} orders ...`);
  await handle.db.execute(sql`
    insert into customers (id, company_name, created_at)
    select gen_random_uuid(), 'Customer ' || n, now() - n * interval '1 minute' from generate_series(1, ${ORDERS / 2}) n`);
  await handle.db.execute(sql`
    insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                        idempotency_key, adults, created_at)
    select 'FT-' || n, c.id, 1100 * (1 + n % 4), (array['USD','EUR','GBP'])[1 + n % 3],
           (array['Not Paid','paid','completed','cancelled'])[1 + n % 4], 'Fast Track', 'Fast Track', 'bench',
           'key-' || n, 1, now() - n * interval '1 second'
    from generate_series(1, ${ORDERS}) n
    join lateral (select id from customers offset (n % 1000) limit 1) c on true`);
  await handle.db.execute(sql`analyze`);

  await time("dashboard totals", () => dashboardStats(handle.db));
  const first = await time("first page of orders", () => recentOrders(handle.db, null));
  let position: PagePosition = { after: first.next! };
  for (let page = 0; page < 200; page++) position = { after: (await recentOrders(handle.db, position)).next! };
  await time("page 201 of orders (keyset)", () => recentOrders(handle.db, position));
  await time("going back a page", () => recentOrders(handle.db, { before: first.next! }));
} finally {
  await handle.close();
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
