// The back office at scale, on PostgreSQL: each admin page's server time and SQL queries per request
// with 10,000 and with 1,000,000 seeded orders, customers and memberships (each customer with one
// order and one membership), and the server's memory during a full CSV export.
//   npm run build && npx tsx --tsconfig tsconfig.app.json bench/admin-pages.ts
// BENCH_DATABASE_URL: a PostgreSQL server it may create (and then drops) a database on, default the
// local one; BENCH_SIZES: the row counts, default 10000,1000000; BENCH_REQUESTS: measured requests
// per page, default 50. Prints the results and writes them to bench/admin-pages.md. A page that is
// not built yet (404) is reported as missing. Reads the server's memory from /proc (Linux).
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { count, eq, sql } from "drizzle-orm";
import * as prettier from "prettier";
import { openDatabase, type Database } from "~/db/client.server";
import { orders, user } from "~/db/schema";
import { grantAdmin } from "~/features/auth/roles.server";
import { seedDatabase } from "../scripts/seed-database";
import { startProductionServer, type ProductionServer } from "../tests/support/production-server";
import { createEmptyPostgresDatabase } from "../tests/support/test-database";
import { QUERY_COUNT_HEADER } from "../server/query-count";

const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const WARM_UP_REQUESTS = 3;
const RSS_SAMPLE_MS = 100;
/** How many "older" links the deep pages follow from the first page of their list. */
const DEEP_PAGE_HOPS = 5;
const GOALS = { medianMs: 300, p95Ms: 150, growth: 2 };
const REPORT_FILE = new URL("./admin-pages.md", import.meta.url);

type PageResult =
  | { kind: "measured"; p50: number; p95: number; queries: number | null }
  | { kind: "missing" }
  | { kind: "failed"; reason: string };

interface ExportResult {
  kind: "measured";
  rows: number;
  seconds: number;
  rssMiB: { start: number; peak: number; end: number; quarterPeaks: (number | null)[] };
}

interface SizeRun {
  orders: number;
  seedSeconds: number;
  /** The machine's one-minute load average when the measurements began: other work skews them. */
  loadAverage: number;
  pages: Map<string, PageResult>;
  export: ExportResult | Exclude<PageResult, { kind: "measured" }>;
}

interface Settings {
  serverUrl: string;
  sizes: number[];
  requests: number;
}

function settingsFromEnv(): Settings {
  const sizes = (process.env.BENCH_SIZES ?? "10000,1000000").split(",").map(Number);
  const requests = Number(process.env.BENCH_REQUESTS ?? 50);
  if (
    sizes.some((size) => !Number.isInteger(size) || size < 1) ||
    sizes.some((size, i) => i > 0 && size <= sizes[i - 1]!)
  ) {
    throw new Error("BENCH_SIZES must be increasing whole numbers of rows, e.g. 10000,1000000");
  }
  if (!Number.isInteger(requests) || requests < 1) throw new Error("BENCH_REQUESTS must be a whole number above 0");
  return { serverUrl: process.env.BENCH_DATABASE_URL || DEFAULT_SERVER_URL, sizes, requests };
}

/**
 * A signed-in admin's requests to the server. They come from a new address every 100 requests
 * (through the proxy the server trusts): one person does not load hundreds of pages a minute, and
 * the general rate limit would stop the measurement; each request is still counted against it.
 */
class AdminClient {
  private sent = 0;

  constructor(
    readonly server: ProductionServer,
    readonly email: string,
    private readonly cookie: string,
  ) {}

  request(path: string): Promise<Response> {
    const address = `10.77.${((this.sent++ / 100) | 0) & 255}.1`;
    return fetch(new URL(path, this.server.baseUrl), {
      headers: { Cookie: this.cookie, "X-Forwarded-For": address },
      redirect: "manual",
    });
  }

  /** Server time: from sending the request to the body's last byte, on loopback. */
  async get(path: string) {
    const started = performance.now();
    const response = await this.request(path);
    const body = await response.text();
    const ms = performance.now() - started;
    const queries = response.headers.get(QUERY_COUNT_HEADER);
    return { status: response.status, body, ms, queries: queries === null ? null : Number(queries) };
  }
}

/** Signs up through the site's own auth API, becomes admin through the admin CLI's code, signs in. */
async function signInAsAdmin(server: ProductionServer, db: Database): Promise<AdminClient> {
  const email = `bench.admin.${Date.now()}@example.com`;
  const password = "bench-admin-password";
  const post = (path: string, body: object) =>
    fetch(new URL(`/api/auth${path}`, server.baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.baseUrl },
      body: JSON.stringify(body),
    });
  const signedUp = await post("/sign-up/email", { name: "Bench Admin", fullName: "Bench Admin", email, password });
  if (!signedUp.ok) throw new Error(`Sign-up failed: ${signedUp.status} ${await signedUp.text()}`);
  // The bench stands in for the owner who followed the confirmation link.
  await db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  if ((await grantAdmin(db, email)) !== "changed") throw new Error("Could not make the bench account an admin");
  const signedIn = await post("/sign-in/email", { email, password });
  if (!signedIn.ok) throw new Error(`Sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  const client = new AdminClient(server, email, cookie);
  const dashboard = await client.get("/admin");
  if (dashboard.status !== 200) throw new Error(`The admin cannot open /admin: ${dashboard.status}`);
  return client;
}

/** The start of a last name, lower-cased: what an admin types to find someone. */
function namePart(fullName: string): string {
  const lastName = fullName.split(" ").at(-1)!;
  return lastName.slice(0, Math.max(4, lastName.length - 2)).toLowerCase();
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Real values to search and open, drawn from the seeded data. */
async function samples(db: Database) {
  const rows = (await db.execute(sql`
    select o.id as order_id, o.order_number, c.id as customer_id, c.full_name
    from orders o join customers c on c.id = o.customer_id
    order by random() limit 1`)) as unknown as {
    rows: { order_id: string; order_number: string; customer_id: string; full_name: string }[];
  };
  const sample = rows.rows[0]!;
  const members = (await db.execute(sql`
    select m.id as membership_id, c.full_name as member_name
    from memberships m join customers c on c.id = m.customer_id
    -- One with a paid fee: the account then has an invoice for the PDF row (a seeded completed order has none).
    where exists (select from invoices i where i.membership_id = m.id and i.status = 'paid')
    order by random() limit 1`)) as unknown as { rows: { membership_id: string; member_name: string }[] };
  const member = members.rows[0]!;
  const today = new Date();
  const lastMonthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const lastMonthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
  const yearStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1));
  return {
    ...sample,
    ...member,
    namePart: namePart(sample.full_name),
    memberNamePart: namePart(member.member_name),
    lastMonth: `from=${isoDay(lastMonthStart)}&to=${isoDay(lastMonthEnd)}`,
    lastYearByMonth: `from=${isoDay(yearStart)}&to=${isoDay(today)}&granularity=month`,
  };
}

/** The page `hops` "older" links away from the first page of a list, or null without such links. */
async function deepListPage(client: AdminClient, list: string, hops: number): Promise<string | null> {
  let url = new URL(list, client.server.baseUrl);
  for (let hop = 0; hop < hops; hop++) {
    const page = await client.get(`${url.pathname}${url.search}`);
    const link = /href="([^"]*[?&](?:amp;)?after=[^"]*)"/.exec(page.body)?.[1];
    if (page.status !== 200 || !link) return null;
    url = new URL(link.replaceAll("&amp;", "&"), url);
  }
  return `${url.pathname}${url.search}`;
}

/**
 * Makes a seeded member the bench account's person, so that its /account shows a membership and
 * orders among all the others (ADR 027 finds both by the address). Done once: later sizes add rows
 * around the same person.
 */
async function adoptMember(db: Database, email: string, membershipId: string) {
  const adopted = await db.execute(sql`select 1 from customers where email = ${email}`);
  if ((adopted as unknown as { rows: unknown[] }).rows.length > 0) return;
  await db.execute(sql`update memberships set email = ${email} where id = ${membershipId}`);
  await db.execute(
    sql`update customers set email = ${email} where id = (select customer_id from memberships where id = ${membershipId})`,
  );
}

/** The newest invoice (of a booking or a fee) of the bench account's person, or null when the seed paid nothing of theirs. */
async function memberInvoicePath(db: Database, email: string): Promise<string | null> {
  const found = (await db.execute(
    sql`select o.invoice_number as number from orders o join customers c on c.id = o.customer_id
        where c.email = ${email} and o.invoice_number is not null
      union all
      select i.number from invoices i join memberships m on m.id = i.membership_id
        where m.email = ${email} and i.number is not null
      order by number desc limit 1`,
  )) as unknown as { rows: { number: string }[] };
  const number = found.rows[0]?.number;
  return number ? `/account/invoices/${number}` : null;
}

/** The pages measured, by a label that stays the same from one size to the next. */
async function pagePaths(db: Database, client: AdminClient): Promise<[string, string | null][]> {
  const s = await samples(db);
  await adoptMember(db, client.email, s.membership_id);
  const q = (value: string) => encodeURIComponent(value);
  return [
    ["/admin", "/admin"],
    ["/admin/orders", "/admin/orders"],
    ["/admin/orders?status=paid", "/admin/orders?status=paid"],
    ["/admin/orders?from=…&to=… (last month)", `/admin/orders?${s.lastMonth}`],
    ["/admin/orders?q=<order number>", `/admin/orders?q=${q(s.order_number)}`],
    ["/admin/orders?q=<part of a name>", `/admin/orders?q=${q(s.namePart)}`],
    [`/admin/orders, ${DEEP_PAGE_HOPS} pages deep`, await deepListPage(client, "/admin/orders", DEEP_PAGE_HOPS)],
    ["/admin/orders/<id>", `/admin/orders/${s.order_id}`],
    ["/admin/clients", "/admin/clients"],
    ["/admin/clients?q=<name>", `/admin/clients?q=${q(s.full_name)}`],
    ["/admin/clients/<id>", `/admin/clients/${s.customer_id}`],
    ["/admin/memberships", "/admin/memberships"],
    ["/admin/memberships?status=active", "/admin/memberships?status=active"],
    ["/admin/memberships?q=<part of a name>", `/admin/memberships?q=${q(s.memberNamePart)}`],
    [
      `/admin/memberships, ${DEEP_PAGE_HOPS} pages deep`,
      await deepListPage(client, "/admin/memberships", DEEP_PAGE_HOPS),
    ],
    ["/admin/memberships/<id>", `/admin/memberships/${s.membership_id}`],
    ["/admin/statistics", "/admin/statistics"],
    ["/admin/statistics (a year by month)", `/admin/statistics?${s.lastYearByMonth}`],
    ["/admin/messages", "/admin/messages"],
    ["/admin/data-requests", "/admin/data-requests"],
    // Not the back office, but measured with it: the member area of a member among all the rows,
    // and one of that member's invoices as a PDF (issue 36's goal for it, 200 ms, is looser than this one).
    ["/account", "/account"],
    ["/account/invoices/<number> (PDF)", await memberInvoicePath(db, client.email)],
  ];
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function measurePage(client: AdminClient, path: string | null, requests: number): Promise<PageResult> {
  if (path === null) return { kind: "failed", reason: "the seed holds nothing of this kind to ask for" };
  const first = await client.get(path);
  if (first.status === 404) return { kind: "missing" };
  if (first.status !== 200) return { kind: "failed", reason: `HTTP ${first.status}` };
  for (let warmUp = 1; warmUp < WARM_UP_REQUESTS; warmUp++) await client.get(path);
  const times: number[] = [];
  let queries: number | null = null;
  for (let run = 0; run < requests; run++) {
    const answer = await client.get(path);
    if (answer.status !== 200) return { kind: "failed", reason: `HTTP ${answer.status} on request ${run + 1}` };
    times.push(answer.ms);
    queries = answer.queries;
  }
  times.sort((a, b) => a - b);
  return { kind: "measured", p50: percentile(times, 0.5), p95: percentile(times, 0.95), queries };
}

function residentMiB(pid: number): number {
  const kiB = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kiB) / 1024;
}

/**
 * The highest sample in each quarter of the export's duration (null for a quarter too short to hold
 * one): flat memory keeps them level.
 */
function quarterPeaks(samples: { at: number; mib: number }[], seconds: number): (number | null)[] {
  const quarterMs = (seconds * 1000) / 4;
  return [0, 1, 2, 3].map((quarter) => {
    const inQuarter = samples.filter((sample) => Math.floor(sample.at / quarterMs) === quarter);
    return inQuarter.length ? Math.max(...inQuarter.map((sample) => sample.mib)) : null;
  });
}

/** Streams the whole CSV export, sampling the server's resident memory meanwhile. */
async function measureExport(client: AdminClient): Promise<SizeRun["export"]> {
  const pid = client.server.process.pid!;
  const start = residentMiB(pid);
  const started = performance.now();
  const samples: { at: number; mib: number }[] = [];
  const sampler = setInterval(
    () => samples.push({ at: performance.now() - started, mib: residentMiB(pid) }),
    RSS_SAMPLE_MS,
  );
  try {
    const response = await client.request("/admin/orders/export.csv");
    if (response.status === 404) return { kind: "missing" };
    if (response.status !== 200 || !response.body) return { kind: "failed", reason: `HTTP ${response.status}` };
    let lines = 0;
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      for (const character of chunk) if (character === "\n") lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const end = residentMiB(pid);
    const peak = Math.max(start, end, ...samples.map((sample) => sample.mib));
    return {
      kind: "measured",
      rows: lines - 1,
      seconds,
      rssMiB: { start, peak, end, quarterPeaks: quarterPeaks(samples, seconds) },
    };
  } finally {
    clearInterval(sampler);
  }
}

async function currentOrders(db: Database): Promise<number> {
  const [row] = await db.select({ count: count() }).from(orders);
  return row?.count ?? 0;
}

/** Seeds, then measures, size after size, on one fresh database; drops it at the end. */
export async function runAdminPagesBenchmark(
  settings: Settings = settingsFromEnv(),
): Promise<{ runs: SizeRun[]; postgresVersion: string }> {
  const database = await createEmptyPostgresDatabase(settings.serverUrl, "bench");
  const handle = await openDatabase({ kind: "postgres", url: database.url });
  let server: ProductionServer | undefined;
  try {
    server = await startProductionServer(
      "postgres",
      { BENCH_COUNT_QUERIES: "true", RETENTION_INTERVAL_MINUTES: "0", LOG_LEVEL: "warn", TRUST_PROXY: "loopback" },
      { databaseUrl: database.url },
    );
    const client = await signInAsAdmin(server, handle.db);
    const version = (await handle.db.execute(sql`select version()`)) as unknown as { rows: { version: string }[] };
    const postgresVersion = version.rows[0]!.version.split(" on ")[0]!;
    const runs: SizeRun[] = [];
    for (const size of settings.sizes) {
      const missing = size - (await currentOrders(handle.db));
      const started = performance.now();
      await seedDatabase(handle.db, { orders: missing, customers: missing, memberships: missing }, (line) =>
        console.log(`[seed] ${line}`),
      );
      const seedSeconds = (performance.now() - started) / 1000;
      const loadAverage = loadavg()[0]!;
      const pages = new Map<string, PageResult>();
      for (const [label, path] of await pagePaths(handle.db, client)) {
        pages.set(label, await measurePage(client, path, settings.requests));
        console.log(`${format(size)} rows  ${label}: ${describe(pages.get(label)!)}`);
      }
      const exported = await measureExport(client);
      console.log(`${format(size)} rows  CSV export: ${describeExport(exported)}`);
      runs.push({ orders: size, seedSeconds, loadAverage, pages, export: exported });
    }
    return { runs, postgresVersion };
  } finally {
    await server?.dispose();
    await handle.close();
    await database.drop();
  }
}

function format(value: number): string {
  return value.toLocaleString("en");
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function describe(result: PageResult): string {
  if (result.kind === "missing") return "missing (404: not built yet)";
  if (result.kind === "failed") return `failed (${result.reason})`;
  return `p50 ${ms(result.p50)}, p95 ${ms(result.p95)}, ${result.queries ?? "?"} queries`;
}

function describeExport(result: SizeRun["export"]): string {
  if (result.kind !== "measured") return describe(result);
  const { rows, seconds, rssMiB } = result;
  return (
    `${format(rows)} rows in ${seconds.toFixed(1)} s (${format(Math.round(rows / seconds))} rows/s), ` +
    `RSS start ${rssMiB.start.toFixed(0)} MiB, peak ${rssMiB.peak.toFixed(0)} MiB, end ${rssMiB.end.toFixed(0)} MiB; ` +
    `peak in each quarter of the export ${rssMiB.quarterPeaks.map((mib) => mib?.toFixed(0) ?? "–").join(" / ")} MiB`
  );
}

const verdict = (pass: boolean) => (pass ? "pass" : "FAIL");

/** One line per page: the smallest and the largest size side by side, against the goals. */
function pageTable(runs: SizeRun[]): string[] {
  const small = runs[0]!;
  const large = runs.at(-1)!;
  const lines = [
    `| page | ${format(small.orders)}: p50 / p95 | ${format(large.orders)}: p50 / p95 | ratio (p50) | queries | p50 < ${GOALS.medianMs} ms | ≤ ${GOALS.growth}× | p95 < ${GOALS.p95Ms} ms |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const [label, largeResult] of large.pages) {
    const smallResult = small.pages.get(label)!;
    if (largeResult.kind !== "measured" || smallResult.kind !== "measured") {
      const shown = largeResult.kind === "measured" ? smallResult : largeResult;
      lines.push(`| ${label} | ${describe(shown)} | | | | | | |`);
      continue;
    }
    const ratio = largeResult.p50 / smallResult.p50;
    const queries =
      smallResult.queries === largeResult.queries
        ? String(largeResult.queries ?? "?")
        : `${smallResult.queries ?? "?"} → ${largeResult.queries ?? "?"}`;
    lines.push(
      `| ${label} | ${ms(smallResult.p50)} / ${ms(smallResult.p95)} | ${ms(largeResult.p50)} / ${ms(largeResult.p95)} | ` +
        `${ratio.toFixed(2)} | ${queries} | ${verdict(largeResult.p50 < GOALS.medianMs)} | ` +
        `${verdict(ratio <= GOALS.growth)} | ${verdict(largeResult.p95 < GOALS.p95Ms)} |`,
    );
  }
  return lines;
}

function report(runs: SizeRun[], settings: Settings, postgresVersion: string, load: number[]): string {
  const cores = cpus();
  return [
    "# Admin pages at scale",
    "",
    `Run ${new Date().toISOString()} on ${cores.length} × ${cores[0]?.model.trim()}, ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${postgresVersion}; ` +
      `load average at the start ${load.map((value) => value.toFixed(1)).join(", ")}.`,
    "",
    'Produced by `bench/admin-pages.ts` (see docs/operations.md, "Sample data and the admin benchmark"). Server time: from sending the request to its last byte, ' +
      `on loopback, over ${settings.requests} requests per page after ${WARM_UP_REQUESTS} warm-up ones. Queries: SQL ` +
      "queries per request (`X-Query-Count`, with `BENCH_COUNT_QUERIES=true`). Goals: under " +
      `${GOALS.medianMs} ms at the largest size, at most ${GOALS.growth}× the time at the smallest, p95 under ${GOALS.p95Ms} ms.`,
    "",
    "Seeding (`npm run db:seed` code, each size adding to the previous one; that many orders, customers and " +
      "memberships): " +
      runs
        .map(
          (run) =>
            `${format(run.orders)} in ${run.seedSeconds.toFixed(0)} s ` +
            `(load average ${run.loadAverage.toFixed(1)} when its measurements began)`,
        )
        .join("; ") +
      ".",
    "",
    ...pageTable(runs),
    "",
    "Full CSV export of all orders (`/admin/orders/export.csv`), server memory sampled every " + `${RSS_SAMPLE_MS} ms:`,
    "",
    ...runs.map((run) => `- ${format(run.orders)} orders: ${describeExport(run.export)}`),
    "",
  ].join("\n");
}

/** Runs the benchmark and writes bench/admin-pages.md. */
async function runAndReport() {
  const settings = settingsFromEnv();
  const load = loadavg();
  const { runs, postgresVersion } = await runAdminPagesBenchmark(settings);
  const text = report(runs, settings, postgresVersion, load);
  // Formatted as the repository's other Markdown, so that `npm run lint` accepts the committed file.
  writeFileSync(
    REPORT_FILE,
    await prettier.format(text, { parser: "markdown", ...(await prettier.resolveConfig(REPORT_FILE)) }),
  );
  return { runs, text };
}

/** For `npm run bench`'s suite: writes bench/admin-pages.md, and returns the largest size's p95 per page against the goals. */
export async function adminPagesBenchmark() {
  const { runs } = await runAndReport();
  const small = runs[0]!;
  const large = runs.at(-1)!;
  return [...large.pages].map(([label, result]) => {
    const baseline = small.pages.get(label)!;
    if (result.kind !== "measured" || baseline.kind !== "measured") {
      return { figure: `${label} p95`, value: describe(result), pass: null };
    }
    const ratio = result.p50 / baseline.p50;
    return {
      figure: `${label} p95 at ${format(large.orders)} rows (${result.queries ?? "?"} queries)`,
      value: ms(result.p95),
      baseline: `${ms(baseline.p95)} at ${format(small.orders)}`,
      ratio: ratio.toFixed(2),
      goal: `p95 < ${GOALS.p95Ms} ms, p50 ≤ ${GOALS.growth}×`,
      pass: result.p95 < GOALS.p95Ms && ratio <= GOALS.growth,
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { text } = await runAndReport();
  console.log(`\n${text}`);
}
