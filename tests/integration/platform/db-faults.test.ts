import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { CHARGING_LEASE_MS } from "~/features/memberships/billing-job.server";
import { toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { runNpmScript } from "../../support/integration/npm-script";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../../support/test-database";

// PostgreSQL drops the server's connections (a restart, a failover, PgBouncer's server_lifetime, an
// operator's pg_terminate_backend) while guests book and pay: no process may exit, every answer is a
// page, a redirect or a 503, the server is healthy again as soon as the database is, and whatever it
// acknowledged is stored once.

const kind = testDatabaseKind();
const TERMINATE_EVERY_MS = 1_000;
const TERMINATE_FOR_MS = 20_000;
const CLIENTS = 6;

let server: ProductionServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

let clients = 0;
function post(path: string, fields: Record<string, string>) {
  clients += 1;
  return fetch(`${server!.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(fields),
    headers: { Origin: server!.baseUrl, "X-Forwarded-For": `10.7.${(clients >> 8) & 255}.${clients & 255}` },
  });
}

// An expiry the form accepts whatever the day: it offers this year and the next ones.
const CARD = {
  cardNumber: "4242 4242 4242 4242",
  expiryMonth: "12",
  expiryYear: String(new Date().getFullYear() + 2),
  cvv: "123",
  consent: "on",
};

interface Outcomes {
  statuses: Map<number, number>;
  booked: { idempotencyKey: string; orderId: string }[];
  paid: string[];
  /** Requests the server did not answer at all (a refused or reset connection). */
  unanswered: number;
}

/** Books and pays from several clients until `until` resolves. */
async function load(until: Promise<void>): Promise<Outcomes> {
  const outcomes: Outcomes = { statuses: new Map(), booked: [], paid: [], unanswered: 0 };
  let done = false;
  void until.then(() => (done = true));
  const count = (response: Response) => {
    outcomes.statuses.set(response.status, (outcomes.statuses.get(response.status) ?? 0) + 1);
  };
  async function client() {
    while (!done) {
      try {
        const idempotencyKey = randomUUID();
        const booking = await post("/fast-track-form", bookingFormFields({ idempotencyKey }));
        count(booking);
        await booking.arrayBuffer();
        const orderId = /\/fast-track-payment\/([0-9a-f-]{36})$/.exec(booking.headers.get("Location") ?? "")?.[1];
        if (booking.status !== 302 || !orderId) continue;
        outcomes.booked.push({ idempotencyKey, orderId });
        const payment = await post(`/fast-track-payment/${orderId}`, CARD);
        count(payment);
        await payment.arrayBuffer();
        if (payment.status === 302) outcomes.paid.push(orderId);
      } catch {
        outcomes.unanswered += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return outcomes;
}

/** Terminates every connection of the server's database, `every` ms for `during` ms. */
async function dropConnections(databaseUrl: string, { every, during }: { every: number; during: number }) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  let terminated = 0;
  try {
    for (const end = Date.now() + during; Date.now() < end;) {
      const { rowCount } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      terminated += rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  } finally {
    await admin.end();
  }
  return terminated;
}

async function healthyWithin(ms: number) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const response = await fetch(`${server!.baseUrl}/healthz`).catch(() => undefined);
    if (response?.status === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

describe.runIf(kind === "postgres")("a database that drops the server's connections", () => {
  it.each([1, 2])(
    "with %i worker(s): no process exits, every answer is a page, a redirect or a 503, nothing acknowledged is lost",
    async (workers) => {
      server = await startProductionServer(kind, { WEB_CONCURRENCY: String(workers), TRUST_PROXY: "true" });
      const dropping = dropConnections(server.databaseUrl!, { every: TERMINATE_EVERY_MS, during: TERMINATE_FOR_MS });
      const outcomes = await load(dropping.then(() => undefined));
      const terminated = await dropping;

      console.log(
        `${workers} worker(s): ${terminated} connections terminated; answers ${JSON.stringify(Object.fromEntries(outcomes.statuses))}; ${outcomes.booked.length} booked, ${outcomes.paid.length} paid`,
      );
      expect(terminated, "connections terminated").toBeGreaterThan(0);
      expect(server.process.exitCode, server.output().slice(-2000)).toBeNull();
      expect(server.output()).not.toMatch(/worker died|Unhandled 'error' event|uncaught/i);
      const statuses = [...outcomes.statuses.keys()].sort();
      expect(
        statuses.every((status) => status < 400 || status === 503),
        `statuses ${statuses.join(", ")}`,
      ).toBe(true);
      expect(outcomes.unanswered, "requests the server never answered").toBe(0);
      expect(outcomes.booked.length, "bookings acknowledged").toBeGreaterThan(0);
      expect(await healthyWithin(10_000), "healthy again").toBe(true);

      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      try {
        const stored = await client.query<{ idempotency_key: string; id: string }>(
          "select idempotency_key, id from orders where idempotency_key = any($1::text[])",
          [outcomes.booked.map((booking) => booking.idempotencyKey)],
        );
        expect(stored.rows.map((row) => row.id).sort()).toEqual(
          outcomes.booked.map((booking) => booking.orderId).sort(),
        );
        const payments = await client.query<{ order_id: string; succeeded: number }>(
          "select order_id, count(*) filter (where outcome = 'succeeded')::int as succeeded from payments where order_id = any($1::uuid[]) group by order_id",
          [outcomes.paid],
        );
        expect(payments.rows).toHaveLength(outcomes.paid.length);
        expect(payments.rows.every((row) => row.succeeded === 1)).toBe(true);
        const paidOrders = await client.query<{ count: number }>(
          "select count(*)::int as count from orders where id = any($1::uuid[]) and status = 'paid'",
          [outcomes.paid],
        );
        expect(paidOrders.rows[0]!.count).toBe(outcomes.paid.length);
      } finally {
        await client.end();
      }
    },
    120_000,
  );

  it("the billing command fails cleanly when its connection is cut, and the next run bills each fee once", async () => {
    const database = await createEmptyPostgresDatabase();
    try {
      const DUE = 300;
      const migrated = await openDatabase({ kind: "postgres", url: database.url });
      await migrated.db.execute(sql`
        with due as (
          insert into customers (full_name, email)
          select 'Due Member ' || n, 'due.member.' || n || '@example.com' from generate_series(1, ${DUE}::int) n
          returning id, email)
        insert into memberships (customer_id, email, plan, currency, price, status, trial_ends_at, billing_anchor,
                                 current_period_start, current_period_end, trial_reminder_sent_at, payment_method_ref,
                                 card_brand, card_last4)
        select id, email, 'medium', 'EUR', ${toMinorUnits(siteConfig.pricing.medium.price)}::int, 'active',
               now() - interval '3 months 1 hour', now() - interval '3 months 1 hour', now() - interval '3 months 1 hour',
               now() - interval '1 hour', now() - interval '3 months 1 day', 'pm_sandbox_pays_' || gen_random_uuid(),
               'Visa', '4242'
        from due`);
      await migrated.close();

      const env = { DATABASE_URL: database.url, LOG_LEVEL: "silent" };
      const cut: { code: number; output: string }[] = [];
      for (let round = 0; round < 4; round++) {
        let running = true;
        const billing = runNpmScript("billing", [], env).finally(() => (running = false));
        const admin = new pg.Client({ connectionString: database.url });
        await admin.connect();
        while (running) {
          await admin.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await admin.end();
        cut.push(await billing);
      }
      console.log(`billing command cut short: exit codes ${cut.map((run) => run.code).join(", ")}`);
      for (const run of cut) {
        expect(run.output).not.toMatch(/Unhandled 'error' event|uncaught/i);
        // Either it finished between two cuts, or it stopped with 1 and said why.
        expect([0, 1]).toContain(run.code);
        if (run.code === 1) expect(run.output).toContain("The billing run failed:");
      }
      expect(
        cut.some((run) => run.code !== 0),
        "a run was cut short",
      ).toBe(true);

      // A run cut short leaves the fees it had taken to the gateway to the first run after their
      // lease: this one, as of a quarter of an hour on.
      const later = new Date(Date.now() + CHARGING_LEASE_MS + 5 * 60_000).toISOString();
      const last = await runNpmScript("billing", ["--at", later], env);
      expect(last.code, last.output).toBe(0);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ status: string; invoices: number; attempts: number }>(
          `select i.status, count(*)::int as invoices, max(i.attempts)::int as attempts
           from memberships m join invoices i on i.membership_id = m.id group by i.status`,
        );
        expect(rows).toEqual([{ status: "paid", invoices: DUE, attempts: 1 }]);
        const periods = await client.query<{ active: number }>(
          "select count(*)::int as active from memberships where status = 'active' and current_period_end > now()",
        );
        expect(periods.rows[0]!.active).toBe(DUE);
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  }, 180_000);
});
