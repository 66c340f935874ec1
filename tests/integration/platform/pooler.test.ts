import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { newPerson } from "../../support/accounts";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { cookieHeader } from "../../support/integration/requests";
import { startPgBouncer } from "../../support/pgbouncer";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { sandboxPaymentFields } from "../../support/sandbox-card";
import { startSmtpSink } from "../../support/smtp-sink.mjs";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../../support/test-database";

// Issue 25: two instances of two workers each share one PostgreSQL through PgBouncer in transaction
// mode, with fewer server connections than the processes' pools hold together. Everything that
// touches the database runs at once; nothing may fail, and nothing may happen twice.

const onPostgres = testDatabaseKind() === "postgres";
/** What PgBouncer may open to PostgreSQL: one per process, where the pools could hold 4 × 3. */
const SERVER_CONNECTIONS = 4;
const POOL_SIZE = 3;
/** Concurrent visitors, each booking and paying, or signing up and in, over and over. */
const VISITORS = 6;
/** Memberships whose quarter has ended: the billing job must charge each once. */
const DUE_MEMBERSHIPS = 10;
const STALE_COUNTER_KEY = "pooler-test:stale";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanup: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Polls `check` until it holds; `what` says, when it times out, what it waited for and how far it got. */
async function waitFor(what: () => string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(250);
  }
}

let addresses = 0;
/** Each visit from an address of its own (TRUST_PROXY), so that no rate limit is what refuses it. */
const visitorHeaders = (headers: Record<string, string> = {}) => {
  addresses += 1;
  return { "X-Forwarded-For": `10.25.${(addresses >> 8) & 255}.${addresses & 255}`, ...headers };
};

function post(server: ProductionServer, path: string, body: BodyInit, headers: Record<string, string>) {
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: { Origin: server.baseUrl, ...headers },
  });
}

/** Lines of a server's output at pino's level error (50) or above, or naming a prepared statement. */
function errorLines(server: ProductionServer): string[] {
  const level = (line: string) => Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0);
  return server
    .output()
    .split("\n")
    .filter((line) => level(line) >= 50 || line.includes("prepared statement"));
}

const loggedTimes = (servers: ProductionServer[], message: string) =>
  servers.reduce((total, server) => total + server.output().split(`"msg":"${message}`).length - 1, 0);

describe.runIf(onPostgres)("two instances of two workers through PgBouncer in transaction mode", () => {
  it(
    `book, pay, sign in, mail, bill and clean up at once over ${SERVER_CONNECTIONS} server connections`,
    { timeout: 180_000 },
    async () => {
      const database = await createEmptyPostgresDatabase(undefined, "pooler");
      cleanup.push(() => database.drop());
      const direct = new pg.Client({ connectionString: database.url });
      await direct.connect();
      cleanup.push(() => direct.end());
      const bouncer = await startPgBouncer({
        databaseUrl: database.url,
        serverConnections: SERVER_CONNECTIONS,
      });
      cleanup.push(() => bouncer.stop());
      const sink = await startSmtpSink();
      cleanup.push(() => sink.close());

      const env = {
        WEB_CONCURRENCY: "2",
        DATABASE_POOLER: "transaction",
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        TRUST_PROXY: "true",
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        // Their shortest interval: each worker runs each job once, 10 and 15 s after it starts.
        RETENTION_INTERVAL_MINUTES: "1",
        BILLING_INTERVAL_MINUTES: "1",
      };
      // The first instance migrates the empty database through PgBouncer.
      const first = await startProductionServer("postgres", env, { databaseUrl: bouncer.url });
      cleanup.push(() => first.dispose());
      const servers = [first];

      // Written directly, before the first billing and retention runs (15 and 10 s after the workers start).
      const price = toMinorUnits(siteConfig.pricing.medium.price);
      await direct.query(
        `with due as (
           insert into customers (full_name, email)
           select 'Due Member ' || n, 'due.member.' || n || '@example.com' from generate_series(1, $1::int) n
           returning id, email)
         insert into memberships (customer_id, email, plan, currency, price, status, trial_ends_at, billing_anchor,
                                  current_period_start, current_period_end, trial_reminder_sent_at, payment_method_ref,
                                  card_brand, card_last4)
         select id, email, 'medium', 'EUR', $2::int, 'active', now() - interval '3 months 1 hour',
                now() - interval '3 months 1 hour', now() - interval '3 months 1 hour', now() - interval '1 hour',
                now() - interval '3 months 1 day',
                'pm_sandbox_pays_' || gen_random_uuid(), 'Visa', '4242'
         from due`,
        [DUE_MEMBERSHIPS, price],
      );
      // A rate-limit counter two days old: retention deletes it.
      await direct.query(
        "insert into rate_limit (id, key, count, last_request) values (gen_random_uuid()::text, $1, 1, $2)",
        [STALE_COUNTER_KEY, Date.now() - 48 * 3_600_000],
      );

      const unexpected: string[] = [];
      const note = async (what: string, response: Response) =>
        unexpected.push(`${what}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
      const paidOrders = new Set<string>();
      const bookingEmails: string[] = [];
      let signIns = 0;

      async function bookAndPay(bookOn: ProductionServer, payOn: ProductionServer) {
        const email = `pooler.${randomUUID()}@example.com`;
        const booked = await post(
          bookOn,
          "/fast-track-form",
          new URLSearchParams(bookingFormFields({ email })),
          visitorHeaders(),
        );
        const orderId = /^\/fast-track-payment\/([0-9a-f-]{36})$/.exec(booked.headers.get("Location") ?? "")?.[1];
        if (booked.status !== 302 || !orderId) return note(`booking on ${bookOn.baseUrl}`, booked);
        bookingEmails.push(email);

        const paid = await post(
          payOn,
          `/fast-track-payment/${orderId}`,
          new URLSearchParams(sandboxPaymentFields()),
          visitorHeaders(),
        );
        if (paid.status !== 302 || paid.headers.get("Location") !== `/fast-track-payment/${orderId}`) {
          return note(`payment on ${payOn.baseUrl}`, paid);
        }
        paidOrders.add(orderId);
      }

      async function signUpAndIn(upOn: ProductionServer, inOn: ProductionServer) {
        const { fullName, email, password } = newPerson();
        const json = visitorHeaders({ "Content-Type": "application/json" });
        const signedUp = await post(
          upOn,
          "/api/auth/sign-up/email",
          JSON.stringify({ name: fullName, email, password }),
          json,
        );
        if (!signedUp.ok) return note(`sign-up on ${upOn.baseUrl}`, signedUp);
        const signedIn = await post(inOn, "/api/auth/sign-in/email", JSON.stringify({ email, password }), json);
        if (!signedIn.ok) return note(`sign-in on ${inOn.baseUrl}`, signedIn);
        // The session, made on one instance, is known on the other: signed in, not an admin, sent home.
        const admin = await fetch(`${upOn.baseUrl}/admin`, {
          redirect: "manual",
          headers: { Cookie: cookieHeader(signedIn.headers) },
        });
        if (admin.headers.get("Location") !== "/") return note(`/admin with a session on ${upOn.baseUrl}`, admin);
        signIns += 1;
      }

      let loading = true;
      const visitors = Array.from({ length: VISITORS }, async (_, visitor) => {
        for (let visit = 0; loading; visit++) {
          const here = servers[(visitor + visit) % servers.length]!;
          const there = servers[(visitor + visit + 1) % servers.length]!;
          try {
            await (visit % 3 === 2 ? signUpAndIn(here, there) : bookAndPay(here, there));
          } catch (error) {
            unexpected.push(`visitor ${visitor}: ${String(error)}`);
          }
        }
      });
      // What PostgreSQL sees of the database's connections (this one aside), and what PgBouncer reports.
      const peaks = { backends: 0, servers: 0, clients: 0, waiting: 0 };
      const sampling = (async () => {
        while (loading) {
          const { rows } = await direct.query<{ backends: number }>(
            "select count(*)::int as backends from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
          );
          const pool = await bouncer.pool();
          peaks.backends = Math.max(peaks.backends, rows[0]!.backends);
          peaks.servers = Math.max(peaks.servers, pool.servers);
          peaks.clients = Math.max(peaks.clients, pool.clients);
          peaks.waiting = Math.max(peaks.waiting, pool.waiting);
          await sleep(200);
        }
      })();

      try {
        // The second instance starts (and looks for migrations to apply) under that load.
        const second = await startProductionServer("postgres", env, { dataOf: first });
        cleanup.push(() => second.dispose());
        servers.push(second);
        // Every worker's first billing and retention runs, under load.
        const logged = (message: string) => loggedTimes(servers, message);
        await waitFor(
          () =>
            `the 4 workers to listen and run billing and retention: ${logged("server listening")} listening, ` +
            `${logged("billing run")} billing and ${logged("retention run")} retention runs`,
          () => logged("server listening") >= 4 && logged("billing run") >= 4 && logged("retention run") >= 4,
          60_000,
        );
      } finally {
        loading = false;
        await Promise.all([...visitors, sampling]);
      }

      const outboxCounts = async () =>
        (
          await direct.query<{ sent: number; waiting: number }>(
            "select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as waiting from outbox",
          )
        ).rows[0]!;
      await waitFor(
        () => "the outbox to be sent",
        async () => {
          const { sent, waiting } = await outboxCounts();
          return waiting === 0 && sink.messages.length >= sent;
        },
        30_000,
      );

      // The log lines first: they name the cause of an unexpected answer.
      expect(servers.flatMap(errorLines).map((line) => line.slice(0, 400))).toEqual([]);
      expect(unexpected).toEqual([]);

      // Every booking stored once, every acknowledged payment stored once, against a paid order.
      const { rows: bookings } = await direct.query<{ email: string; orders: number }>(
        `select c.email, count(o.id)::int as orders from customers c join orders o on o.customer_id = c.id
         where c.email = any($1) group by c.email`,
        [bookingEmails],
      );
      expect(bookings.filter((row) => row.orders !== 1)).toEqual([]);
      expect(bookings).toHaveLength(bookingEmails.length);
      const { rows: payments } = await direct.query<{ id: string; status: string; payments: number }>(
        `select o.id, o.status, count(p.id)::int as payments from orders o left join payments p on p.order_id = o.id
         where o.id = any($1::uuid[]) group by o.id`,
        [[...paidOrders]],
      );
      expect(payments.filter((row) => row.status !== "paid" || row.payments !== 1)).toEqual([]);
      expect(payments).toHaveLength(paidOrders.size);

      // Each due renewal charged once, at the first attempt, its receipt queued once.
      const { rows: renewals } = await direct.query<{ invoices: number; paid: number; receipts: number }>(
        `select m.email, count(i.id)::int as invoices,
                count(i.id) filter (where i.status = 'paid' and i.attempts = 1 and i.amount = m.price)::int as paid,
                (select count(*)::int from outbox o where o.to = m.email and o.subject like 'Receipt:%') as receipts
         from memberships m left join invoices i on i.membership_id = m.id
         where m.email like 'due.member.%' group by m.id`,
      );
      expect(renewals).toHaveLength(DUE_MEMBERSHIPS);
      expect(renewals.filter((row) => row.invoices !== 1 || row.paid !== 1 || row.receipts !== 1)).toEqual([]);

      // Each mail the outbox holds was sent once.
      const { rows: mails } = await direct.query<{ to: string; subject: string }>('select "to", subject from outbox');
      const delivered = sink.messages.map((mail) => `${mail.envelopeTo.join(",")} ${mail.subject}`).sort();
      expect(delivered).toEqual(mails.map((mail) => `${mail.to} ${mail.subject}`).sort());

      // No session-level lock stayed behind: a session that is not in a transaction holds none.
      const { rows: sessionLocks } = await direct.query(
        `select l.objid from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and a.datname = current_database() and a.state = 'idle'`,
      );
      expect(sessionLocks).toEqual([]);

      // Retention ran through PgBouncer too.
      const { rowCount: staleCounters } = await direct.query("select 1 from rate_limit where key = $1", [
        STALE_COUNTER_KEY,
      ]);
      expect(staleCounters).toBe(0);

      // PgBouncer held more clients than it had server connections, and never opened more than its cap.
      expect(peaks.backends).toBeLessThanOrEqual(SERVER_CONNECTIONS);
      expect(peaks.servers).toBeLessThanOrEqual(SERVER_CONNECTIONS);
      expect(peaks.clients).toBeGreaterThan(SERVER_CONNECTIONS);
      expect(paidOrders.size).toBeGreaterThan(0);
      expect(signIns).toBeGreaterThan(0);
      console.log(
        `through PgBouncer (${SERVER_CONNECTIONS} server connections): ${paidOrders.size} bookings paid, ${signIns} sign-ins, ` +
          `${DUE_MEMBERSHIPS} renewals charged, ${mails.length} mails sent once; peaks: ${peaks.backends} PostgreSQL backends, ` +
          `${peaks.clients} PgBouncer clients, ${peaks.waiting} waiting`,
      );
    },
  );
});
