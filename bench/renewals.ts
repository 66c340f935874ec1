// The membership billing job at scale, on PostgreSQL (issue 22, deliverable 5): BENCH_RENEWALS
// memberships (default 100,000) due for renewal, seeded with set-based SQL, then billed as
// production bills them: by the production server's own schedule (`scheduleBilling`, its first run
// 15 s after boot), while bookings are posted to that server with wrk. It reports
//  1. renewals per second, against a bare UPDATE that moves the same rows' periods forward, timed
//     just before the server starts and rolled back;
//  2. a second instance, `npm run billing` (NODE_ENV=production), started while the server's run is
//     under way: every invoice must be charged once, with one receipt;
//  3. the booking p50 / p99 while the server's run is under way.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "~/db/client.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { toMinorUnits } from "~/lib/currency";
import { savedCard, seedDatabase } from "../scripts/seed-database";
import { siteConfig } from "../site.config";
import { createEmptyPostgresDatabase } from "../tests/support/test-database";
import { bookingsOnlyLua } from "./lib/booking-load";
import { generatorBound, generatorNote, measureLoad } from "./lib/load";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, startServer } from "./lib/server";
import type { BenchSettings } from "./settings";

const CONNECTIONS = 50;
const GOAL_P99_MS = 250;
const ORIGIN = "http://localhost";

const count = (value: number) => value.toLocaleString("en");

/**
 * One active Medium membership per seeded customer, on the sandbox's paying card, its quarter ended
 * within the hour before `now`: one billing run charges each once.
 */
async function seedDueMemberships(db: Database, now: Date) {
  const card = await savedCard("4242424242424242");
  const period = sql.raw(`interval '${MEMBERSHIP_TERMS.periodMonths} months'`);
  await db.execute(sql`
    insert into memberships (customer_id, email, order_id, plan, currency, price, status, trial_ends_at,
                             billing_anchor, current_period_start, current_period_end, trial_reminder_sent_at, payment_method_ref,
                             card_brand, card_last4, created_at)
    select c.id, c.email, first_order.id, 'medium', first_order.currency, ${toMinorUnits(siteConfig.pricing.medium.price)},
           'active', period_end - ${period}, period_end - ${period}, period_end - ${period}, period_end, period_end - ${period} - interval '1 day',
           ${card.refPrefix} || gen_random_uuid(), ${card.brand}, ${card.last4},
           period_end - ${period} - ${MEMBERSHIP_TERMS.trialDays}::int * interval '1 day'
    from customers c
    cross join lateral (select ${now.toISOString()}::timestamptz - random() * interval '1 hour' as period_end) due
    join lateral (select id, currency from orders where customer_id = c.id order by created_at limit 1) first_order on true`);
  await db.execute(sql`vacuum analyze memberships`);
}

/** The bare UPDATE of the same rows: their periods moved a quarter forward, timed, then rolled back. */
async function bareUpdateSeconds(url: string): Promise<{ rows: number; seconds: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    const started = performance.now();
    const result = await client.query(
      `update memberships set current_period_start = current_period_end,
         current_period_end = current_period_end + interval '${MEMBERSHIP_TERMS.periodMonths} months'`,
    );
    const seconds = (performance.now() - started) / 1000;
    await client.query("rollback");
    return { rows: result.rowCount ?? 0, seconds };
  } finally {
    await client.end();
  }
}

interface CliRun {
  exitCode: number | null;
  output: string;
}

/** `npm run billing` on the server's database, as a second instance would run it. */
function billingProcess(databaseUrl: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "--tsconfig", "tsconfig.app.json", "scripts/billing.ts"], {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", SITE_URL: ORIGIN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve({ exitCode, output }));
  });
}

const feesCharged = (run: CliRun) => Number(/fees charged: (\d+)/.exec(run.output)?.[1] ?? 0);

async function invoiceCounts(db: Database) {
  const result = (await db.execute(sql`
    select count(*)::int as created, count(*) filter (where status = 'paid')::int as paid from invoices`)) as unknown as {
    rows: { created: number; paid: number }[];
  };
  return result.rows[0]!;
}

const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (polling) until the server's run has written its first invoices: the instant it started, within a poll and a batch. */
async function runStarted(db: Database, deadline: number) {
  while ((await invoiceCounts(db)).created === 0) {
    if (Date.now() > deadline) throw new Error("the server's billing run did not start");
    await sleep(POLL_MS);
  }
  return performance.now();
}

/** Waits (polling) until `total` invoices are paid; the instant they were, within a poll. */
async function allPaid(db: Database, total: number, deadline: number) {
  while ((await invoiceCounts(db)).paid < total) {
    if (Date.now() > deadline) return undefined;
    await sleep(POLL_MS);
  }
  return performance.now();
}

/** Per membership, after the run: its invoices, how many are paid, what they took, its receipts. */
async function chargesPerMembership(db: Database, price: number) {
  const result = (await db.execute(sql`
    with receipts as (
      select o.to as email, count(*) as receipts from outbox o where o.subject like 'Receipt:%' group by o.to
    ), per_member as (
      select m.id,
             count(i.id) as invoices,
             count(i.id) filter (where i.status = 'paid' and i.provider_ref is not null and i.attempts = 1) as paid,
             coalesce(sum(i.amount) filter (where i.status = 'paid'), 0) as amount,
             coalesce(max(r.receipts), 0) as receipts
      from memberships m left join invoices i on i.membership_id = m.id left join receipts r on r.email = m.email
      group by m.id
    )
    select count(*)::int as members,
           count(*) filter (where invoices = 1 and paid = 1 and amount = ${price}::int and receipts = 1)::int as exact,
           count(*) filter (where paid = 0)::int as uncharged,
           count(*) filter (where invoices > 1 or paid > 1 or receipts > 1)::int as doubled
    from per_member`)) as unknown as {
    rows: { members: number; exact: number; uncharged: number; doubled: number }[];
  };
  return result.rows[0]!;
}

async function measure(
  databaseUrl: string,
  db: Database,
  settings: BenchSettings,
  total: number,
): Promise<ResultRow[]> {
  const now = new Date();
  const started = performance.now();
  await seedDatabase(db, { orders: total, customers: total, memberships: 0 });
  await seedDueMemberships(db, now);
  const seedSeconds = (performance.now() - started) / 1000;
  console.log(`  seeded ${count(total)} due memberships in ${seedSeconds.toFixed(1)} s`);
  const bare = await bareUpdateSeconds(databaseUrl);
  const barePerSecond = bare.rows / bare.seconds;
  console.log(`  bare UPDATE: ${count(bare.rows)} rows in ${bare.seconds.toFixed(2)} s`);

  // The production schedule: the first run 15 s after boot, the next an hour after it ends.
  const server = await startServer({
    kind: "postgres",
    port: settings.serverPort,
    workers: 1,
    databaseUrl,
    extraEnv: { BILLING_INTERVAL_MINUTES: "60" },
  });
  try {
    const deadline = Date.now() + 15 * 60_000;
    const runStart = await runStarted(db, deadline);
    console.log("  the server's billing run started");
    const acknowledged = new Set<string>();
    const bookings = await measureLoad({
      url: server.origin,
      connections: CONNECTIONS,
      lua: bookingsOnlyLua(),
      seconds: settings.loadSeconds,
      warmupSeconds: settings.warmupSeconds,
    });
    for (const id of bookings.collected) acknowledged.add(id);
    const loadEnded = performance.now();
    const loadWithinRun = (await invoiceCounts(db)).paid < total;
    const second = billingProcess(databaseUrl);
    const runEnd = await allPaid(db, total, deadline);
    const cli = await second;
    const runSeconds = ((runEnd ?? performance.now()) - runStart) / 1000;
    const serverRss = server.rss();
    console.log(
      `  ${count(total)} renewals in ${runSeconds.toFixed(1)} s; the second instance charged ${feesCharged(cli)}`,
    );

    const price = toMinorUnits(siteConfig.pricing.medium.price);
    const check = await chargesPerMembership(db, price);
    const renewalsPerSecond = runEnd ? total / runSeconds : 0;
    const errors =
      bookings.errors + Object.entries(bookings.statusCounts).filter(([status]) => status !== "302").length;
    const loadSeconds = (loadEnded - runStart) / 1000;
    return [
      {
        figure:
          `Renewals/s: the production server's scheduled billing run (built bundle, NODE_ENV=production, sandbox gateway) ` +
          `over ${count(total)} due memberships, each an invoice, a charge, an event and a rendered receipt, from its ` +
          `first invoice to its last charge (${runSeconds.toFixed(1)} s${runEnd ? "" : ", unfinished"}; ${count(feesCharged(cli))} ` +
          `charged by the second instance; server RSS ${(serverRss / 2 ** 20).toFixed(0)} MiB at the end; seeding took ${seedSeconds.toFixed(0)} s)`,
        value: perSecond(renewalsPerSecond),
        baseline:
          `${perSecond(barePerSecond)}: one \`update memberships set current_period_start = current_period_end, ` +
          `current_period_end = current_period_end + interval '3 months'\` over the same ${count(bare.rows)} rows ` +
          `(${bare.seconds.toFixed(2)} s, rolled back, just before the server started)`,
        ratio: (renewalsPerSecond / barePerSecond).toFixed(4),
        // A renewal is a charge, an invoice, an event and a rendered receipt; a bare UPDATE is none of those.
        pass: null,
      },
      {
        figure:
          `A second instance, \`npm run billing\` (NODE_ENV=production), started during the server's run (exit code ` +
          `${cli.exitCode}: ${cli.exitCode === 1 ? "stopped on the billing lock" : "ran"}): memberships with exactly one paid ` +
          `invoice, of the exact amount, charged at the first attempt, and one receipt`,
        value: `${count(check.exact)} of ${count(check.members)}; ${count(check.uncharged)} uncharged, ${count(check.doubled)} charged or mailed twice`,
        goal: "each invoice charged once",
        pass: check.members === total && check.exact === total,
      },
      {
        figure:
          `Booking p50 / p99 while the server bills (${CONNECTIONS} connections, ${settings.warmupSeconds} s warm-up then ` +
          `${settings.loadSeconds} s measured, ending ${loadSeconds.toFixed(0)} s into the run` +
          `${loadWithinRun ? ", within it" : ", after it ended"}; ${count(acknowledged.size)} bookings, ${errors} errors; ` +
          `${generatorNote(bookings)})`,
        value: `${ms(bookings.p50)} / ${ms(bookings.p99)}`,
        goal: `p99 < ${GOAL_P99_MS} ms`,
        pass: bookings.p99 < GOAL_P99_MS && errors === 0 && loadWithinRun && !generatorBound(bookings),
      },
    ];
  } finally {
    await server.dispose();
  }
}

/** For `npm run bench`: seeds and serves its own PostgreSQL database, dropped at the end. */
export async function renewalsAtScale(settings: BenchSettings): Promise<ResultRow[]> {
  const total = Number(process.env.BENCH_RENEWALS ?? 100_000);
  const postgresAdminUrl = await postgresForBench();
  if (!postgresAdminUrl) return [{ figure: "Renewals at scale", value: "skipped: no PostgreSQL", pass: null }];
  const database = await createEmptyPostgresDatabase(postgresAdminUrl, "bench_renewals");
  const handle = await openDatabase({ kind: "postgres", url: database.url });
  try {
    return await measure(database.url, handle.db, settings, total);
  } finally {
    await handle.close();
    await database.drop();
  }
}
