// The membership billing job at scale, on PostgreSQL (issue 22, deliverable 5): BENCH_RENEWALS
// memberships (default 100,000) due for renewal, seeded with set-based SQL on the production
// server's own fresh database, then
//  1. one `npm run billing` process (sandbox gateway) as renewals per second, against a bare
//     UPDATE that moves the same rows' periods forward, timed just before and rolled back;
//  2. a quarter later, two `npm run billing` processes at once while bookings are posted at 50
//     connections: every invoice charged once, and the booking p99 while they run.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { addMonths } from "date-fns";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "~/db/client.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-status";
import { toMinorUnits } from "~/lib/currency";
import { savedCard, seedDatabase } from "../scripts/seed-database";
import { siteConfig } from "../site.config";
import { bookingRequest } from "./lib/booking-load";
import { generatorNote, measureLoad } from "./lib/load";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, startServer, type BenchServer } from "./lib/server";
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
                             current_period_start, current_period_end, trial_reminder_sent_at, payment_method_ref,
                             card_brand, card_last4, created_at)
    select c.id, c.email, first_order.id, 'medium', first_order.currency, ${toMinorUnits(siteConfig.pricing.medium.price)},
           'active', period_end - ${period}, period_end - ${period}, period_end, period_end - ${period} - interval '1 day',
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

/** `npm run billing -- --at <at>` on the server's database, as a second instance would run it. */
function billingProcess(databaseUrl: string, at: Date): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "npx",
      ["tsx", "--tsconfig", "tsconfig.app.json", "scripts/billing.ts", "--at", at.toISOString()],
      {
        env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", SITE_URL: ORIGIN },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve({ exitCode, output }));
  });
}

const feesCharged = (run: CliRun) => Number(/fees charged: (\d+)/.exec(run.output)?.[1] ?? 0);

/** Per membership, after two runs: its invoices, how many are paid, what they took, its receipts. */
async function chargesPerMembership(db: Database, price: number) {
  const result = (await db.execute(sql`
    with per_member as (
      select m.id,
             count(i.id) as invoices,
             count(i.id) filter (where i.status = 'paid' and i.provider_ref is not null) as paid,
             count(distinct i.idempotency_key) as keys,
             coalesce(sum(i.amount) filter (where i.status = 'paid'), 0) as amount,
             (select count(*) from outbox o where o.to = m.email and o.subject like 'Receipt:%') as receipts
      from memberships m left join invoices i on i.membership_id = m.id
      group by m.id, m.email
    )
    select count(*)::int as members,
           count(*) filter (where invoices = 2 and paid = 2 and keys = 2 and amount = 2 * ${price}::int
                                  and receipts = 2)::int as exact,
           count(*) filter (where paid < 2)::int as uncharged,
           count(*) filter (where invoices > 2 or paid > 2 or receipts > 2)::int as doubled
    from per_member`)) as unknown as {
    rows: { members: number; exact: number; uncharged: number; doubled: number }[];
  };
  return result.rows[0]!;
}

async function measure(server: BenchServer, settings: BenchSettings, total: number): Promise<ResultRow[]> {
  const handle = await openDatabase({ kind: "postgres", url: server.databaseUrl! });
  try {
    const now = new Date();
    let started = performance.now();
    await seedDatabase(handle.db, { orders: total, customers: total, memberships: 0 });
    await seedDueMemberships(handle.db, now);
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(`  seeded ${count(total)} due memberships in ${seedSeconds.toFixed(1)} s`);

    const bare = await bareUpdateSeconds(server.databaseUrl!);
    started = performance.now();
    const first = await billingProcess(server.databaseUrl!, now);
    const firstSeconds = (performance.now() - started) / 1000;
    const renewalsPerSecond = feesCharged(first) / firstSeconds;
    const barePerSecond = bare.rows / bare.seconds;
    console.log(`  one run: ${count(feesCharged(first))} charged in ${firstSeconds.toFixed(1)} s`);

    // A quarter later every membership is due again: two instances bill it at once, under bookings.
    const nextQuarter = addMonths(now, MEMBERSHIP_TERMS.periodMonths);
    const acknowledged = new Set<string>();
    started = performance.now();
    const jobs = Promise.all([
      billingProcess(server.databaseUrl!, nextQuarter),
      billingProcess(server.databaseUrl!, nextQuarter),
    ]);
    let jobsEnded = 0;
    void jobs.then(() => (jobsEnded = performance.now()));
    const bookings = await measureLoad({
      url: server.origin,
      connections: CONNECTIONS,
      requests: [bookingRequest(acknowledged)],
      seconds: settings.loadSeconds,
      warmupSeconds: 0,
    });
    const loadEnded = performance.now();
    const runs = await jobs;
    const bothSeconds = ((jobsEnded || performance.now()) - started) / 1000;
    const price = toMinorUnits(siteConfig.pricing.medium.price);
    const check = await chargesPerMembership(handle.db, price);
    const errors =
      bookings.errors + Object.entries(bookings.statusCounts).filter(([status]) => status !== "302").length;
    const loadWithinRun = jobsEnded === 0 || jobsEnded >= loadEnded;

    return [
      {
        figure:
          `Renewals/s, one \`npm run billing\` over ${count(total)} due memberships (sandbox gateway, NODE_ENV=production; ` +
          `${count(feesCharged(first))} charged, from the process's start to its end, in ${firstSeconds.toFixed(1)} s; seeding took ${seedSeconds.toFixed(0)} s)`,
        value: perSecond(renewalsPerSecond),
        baseline:
          `${perSecond(barePerSecond)}: one bare UPDATE moving the same ${count(bare.rows)} rows' periods a quarter ` +
          `forward (${bare.seconds.toFixed(2)} s, rolled back before the run)`,
        ratio: (renewalsPerSecond / barePerSecond).toFixed(4),
        // A renewal is a charge, an invoice, an event and a rendered receipt; a bare UPDATE is none of those.
        pass: null,
      },
      {
        figure:
          `Two \`npm run billing\` processes at once, a quarter later (${runs.map(feesCharged).map(count).join(" + ")} ` +
          `charged, exit codes ${runs.map((run) => run.exitCode).join(", ")}, ${bothSeconds.toFixed(1)} s): memberships ` +
          `with exactly one paid invoice per quarter, its amount, key and receipt`,
        value: `${count(check.exact)} of ${count(check.members)}; ${count(check.uncharged)} uncharged, ${count(check.doubled)} charged twice`,
        goal: "each invoice charged once",
        pass: check.members === total && check.exact === total,
      },
      {
        figure:
          `Booking p50 / p99 during those billing runs (${CONNECTIONS} connections, ${settings.loadSeconds} s` +
          `${loadWithinRun ? ", all within the run" : ", the runs ended before the load did"}; ` +
          `${count(acknowledged.size)} bookings, ${errors} errors; ${generatorNote(bookings)})`,
        value: `${ms(bookings.p50)} / ${ms(bookings.p99)}`,
        goal: `p99 < ${GOAL_P99_MS} ms`,
        pass: bookings.p99 < GOAL_P99_MS && errors === 0,
      },
    ];
  } finally {
    await handle.close();
  }
}

/** For `npm run bench`: seeds and serves its own PostgreSQL database, dropped at the end. */
export async function renewalsAtScale(settings: BenchSettings): Promise<ResultRow[]> {
  const total = Number(process.env.BENCH_RENEWALS ?? 100_000);
  const postgresAdminUrl = await postgresForBench();
  if (!postgresAdminUrl) return [{ figure: "Renewals at scale", value: "skipped: no PostgreSQL", pass: null }];
  // The bench runs the jobs itself, at instants of its choosing: the server's own schedule stays off.
  const server = await startServer({
    kind: "postgres",
    port: settings.serverPort,
    postgresAdminUrl,
    extraEnv: { BILLING_INTERVAL_MINUTES: "0" },
  });
  try {
    return await measure(server, settings, total);
  } finally {
    await server.dispose();
  }
}
