// `npm run bench`: builds, starts the production server, runs every benchmark and writes
// bench/RESULTS.md. Environment: BENCH_DATABASE_URL (a PostgreSQL server to create databases on;
// default the local one, skipped when it does not answer), BENCH_ONLY (comma-separated benchmark
// names), BENCH_LOAD_SECONDS, BENCH_WARMUP_SECONDS, BENCH_MEMORY_SECONDS, BENCH_LIGHTHOUSE_RUNS,
// BENCH_SERVER_NODE_ARGS (extra node flags for the server, e.g. to profile it), BENCH_PORT,
// BENCH_BASELINE_PORT, BENCH_STRIPE_PORT (the fake Stripe's), BENCH_WORKERS (the cluster's workers);
// on a machine of many cores, BENCH_SERVER_CPUS and BENCH_WRK_CPUS (taskset's CPU lists for the
// server and its node:http baselines, and for wrk) and BENCH_WRK_THREADS (bench/NOTES.md, "On a
// bigger machine").
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { adminPagesBenchmark } from "./admin-pages";
import { bookingsUnderLoad } from "./bookings";
import { cacheHitPieces } from "./cache-hit-pieces";
import { clusterUnderLoad } from "./cluster";
import { lighthouseScores } from "./lighthouse";
import { machineDescription, resultsTable, type ResultRow } from "./lib/results";
import { postgresForBench, startServer, type BenchServer, type DatabaseKind } from "./lib/server";
import { memoryUnderLoad } from "./memory";
import { pageWeights } from "./page-weight";
import { outboxDrain } from "./outbox";
import { paymentsUnderLoad } from "./payments";
import { poolerUnderLoad } from "./pooler";
import { publicPagesUnderLoad } from "./public-pages";
import { webhooksUnderLoad } from "./webhooks";
import { renewalsAtScale } from "./renewals";
import { settingsFromEnv, type BenchSettings } from "./settings";

type Benchmark = { name: string } & (
  | {
      /** The databases it runs on; "preferred" is PostgreSQL when one is available, else PGlite. */
      databases: "preferred" | "both";
      run(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]>;
    }
  | {
      /** It seeds and serves its own databases. */
      databases: "own";
      run(settings: BenchSettings): Promise<ResultRow[]>;
    }
);

const BENCHMARKS: Benchmark[] = [
  { name: "page-weight", databases: "preferred", run: pageWeights },
  { name: "lighthouse", databases: "preferred", run: lighthouseScores },
  { name: "public-pages", databases: "preferred", run: publicPagesUnderLoad },
  // What each piece of a page-cache hit costs, in a process of its own that needs no database.
  { name: "cache-hit-pieces", databases: "own", run: cacheHitPieces },
  { name: "bookings", databases: "both", run: bookingsUnderLoad },
  // Starts its own servers: the sandbox gateway's, then one in Stripe mode against the fake Stripe.
  { name: "payments", databases: "own", run: paymentsUnderLoad },
  // The outbox worker alone on a PostgreSQL database of its own, sending the mails of sandbox payments.
  { name: "outbox", databases: "own", run: outboxDrain },
  // Starts its own server in Stripe mode against the fake Stripe.
  { name: "webhooks", databases: "own", run: webhooksUnderLoad },
  // Two servers on PostgreSQL databases of their own: WEB_CONCURRENCY=2 against 1.
  { name: "cluster", databases: "own", run: clusterUnderLoad },
  // Two servers of 2 workers on PostgreSQL databases of their own: through PgBouncer against direct.
  { name: "pooler", databases: "own", run: poolerUnderLoad },
  // Seeds and serves its own PostgreSQL databases (10,000, then 1,000,000 orders).
  { name: "admin-pages", databases: "own", run: adminPagesBenchmark },
  // Seeds its own PostgreSQL database with 100,000 memberships due for renewal (BENCH_RENEWALS).
  { name: "renewals", databases: "own", run: renewalsAtScale },
  { name: "memory", databases: "preferred", run: memoryUnderLoad },
];

const RESULTS_FILE = new URL("RESULTS.md", import.meta.url);
const NOTES_FILE = new URL("NOTES.md", import.meta.url);

/** Runs one benchmark on a fresh server and database; a benchmark that breaks becomes a failed row. */
async function runBenchmark(
  benchmark: Benchmark,
  kind: DatabaseKind,
  settings: BenchSettings,
  postgresAdminUrl: string | undefined,
): Promise<ResultRow[]> {
  let server: BenchServer | undefined;
  try {
    if (benchmark.databases === "own") return await benchmark.run(settings);
    // One process, unless a benchmark measures the cluster (public pages compare one with one node:http process).
    server = await startServer({ kind, port: settings.serverPort, postgresAdminUrl, workers: 1 });
    return await benchmark.run(server, settings);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ figure: `${benchmark.name} (${kind})`, value: `did not complete: ${message}`, pass: false }];
  } finally {
    await server?.dispose();
  }
}

async function main() {
  const settings = settingsFromEnv();
  const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
  const selected = BENCHMARKS.filter((benchmark) => !only || only.includes(benchmark.name));

  console.log("building ...");
  execFileSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  const postgresAdminUrl = (await postgresForBench()) ?? undefined;
  if (!postgresAdminUrl) console.log("no PostgreSQL answers: PGlite only (set BENCH_DATABASE_URL)");
  const preferred: DatabaseKind = postgresAdminUrl ? "postgres" : "pglite";

  const loadAtStart = loadavg()[0]!;
  const rows: ResultRow[] = [];
  for (const benchmark of selected) {
    const kinds: DatabaseKind[] =
      benchmark.databases === "both" && postgresAdminUrl ? ["postgres", "pglite"] : [preferred];
    for (const kind of kinds) {
      console.log(`${benchmark.name} on ${kind} ...`);
      const found = await runBenchmark(benchmark, kind, settings, postgresAdminUrl);
      for (const row of found) console.log(`  ${row.pass === false ? "FAIL" : "ok  "} ${row.figure}: ${row.value}`);
      rows.push(...found);
    }
  }

  const date = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC";
  const notes = existsSync(NOTES_FILE) ? readFileSync(NOTES_FILE, "utf8") : "";
  const report = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (see bench/run.ts); rates are ratios to a baseline measured in the same run,",
    "weights are counts. Do not edit the table by hand: the notes below it come from bench/NOTES.md.",
    "",
    // Other work on the machine moves every rate; the load average says how much there was.
    resultsTable(
      rows,
      date,
      `${machineDescription()}; load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
    ),
    "",
    notes,
  ].join("\n");
  writeFileSync(RESULTS_FILE, report);
  const failed = rows.filter((row) => row.pass === false).length;
  console.log(`wrote bench/RESULTS.md: ${rows.length} figures, ${failed} below their goal`);
}

await main();
