import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDebianPackage } from "../../scripts/debian-package.mjs";
import { CLOCK_TICKS_PER_SECOND, processCpuMs } from "./process-cpu";
import { pinned } from "./pinning";

/** The processes a load's CPU time is read from, by name: `{ server: [pid], postgres: [...] }`. */
export type ProcessGroups = () => Record<string, number[]>;

/**
 * One load, as wrk (Debian's package, C with LuaJIT) sends it. Without `lua`, every request is the
 * same and wrk builds it once. `lua` may define `request()` (a fresh request each time, with
 * `wrk.format`) and `on_response(status, headers, body)`; it may call `collect(text)` to hand a value back
 * (`LoadFigures.collected`), and read the globals `thread_index` (0, 1, …) and `run_id` (8 hex
 * digits, new for every wrk run).
 */
export interface LoadOptions {
  /** Origin and path of the static request; a `request()` in `lua` replaces its path. */
  url: string;
  connections: number;
  /** Seconds measured, after `warmupSeconds` of the same load whose figures are thrown away. */
  seconds: number;
  warmupSeconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  lua?: string;
  /** Count responses by status (`statusCounts`); costs wrk a parse of every response. */
  countStatuses?: boolean;
  /** Whose CPU time to charge the measured requests with. */
  processes?: ProcessGroups;
}

export interface LoadFigures {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and responses of status 400 and above. */
  errors: number;
  /** By status, when `countStatuses` or `on_response` asked for them. */
  statusCounts: Record<string, number>;
  /** What the script's `collect` handed back. */
  collected: string[];
  /** Share of its cores (one per thread) the load generator used while measuring. */
  generatorCpuShare: number;
  /** CPU milliseconds each process group (`LoadOptions.processes`) spent per request. */
  cpuMsPerRequest: Record<string, number>;
}

/** Above this share of its cores, wrk itself may be what limits the rate it measures. */
export const GENERATOR_BOUND_SHARE = 0.9;
/** wrk's threads, one core's worth each: one here, as many as a bigger machine needs (BENCH_WRK_THREADS). */
const WRK_THREADS = Math.max(1, Math.floor(Number(process.env.BENCH_WRK_THREADS) || 1));
/** wrk's default of 2 s would drop slow responses from the latencies as timeouts. */
const REQUEST_TIMEOUT = "60s";
const RESULT_MARK = "WRK_RESULT ";
const STATUS_MARK = "WRK_STATUS ";
const COLLECT_MARK = "WRK_COLLECT ";

const luaString = (text: string) => JSON.stringify(text);

/** The Lua wrk runs: the static request, the caller's script, then what reports back to us. */
function luaScript(options: LoadOptions, runId: string): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join("\n");
  const countsResponses = options.countStatuses || options.lua?.includes("on_response");
  return `
run_id = ${luaString(runId)}
thread_index = 0
statuses = {}
collected = {}
wrk.method = ${luaString(options.method ?? "GET")}
${options.body === undefined ? "" : `wrk.body = ${luaString(options.body)}`}
${headers}
function collect(text) collected[#collected + 1] = text end

${options.lua ?? ""}

${
  countsResponses
    ? `function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if on_response then on_response(status, headers, body) end
end`
    : ""
}

local threads = {}
function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

function done(summary, latency, requests)
  local stat = io.open("/proc/self/stat"):read("*a")
  local fields = {}
  for field in stat:match("%) (.*)"):gmatch("%S+") do fields[#fields + 1] = field end
  local e = summary.errors
  io.write(string.format('${RESULT_MARK}{"requests":%d,"durationMicros":%d,"p50Micros":%d,"p99Micros":%d,"errors":%d,"cpuTicks":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout, tonumber(fields[12]) + tonumber(fields[13])))
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do io.write("${STATUS_MARK}", status, " ", count, "\\n") end
    for _, text in ipairs(thread:get("collected")) do io.write("${COLLECT_MARK}", text, "\\n") end
  end
end
`;
}

let wrkPath: string | undefined;

/** Runs wrk once (one thread) and reads what its `done` printed. */
async function runWrk(options: LoadOptions, seconds: number) {
  wrkPath ??= ensureDebianPackage({
    packageName: "wrk",
    paths: [process.env.WRK_PATH, "/usr/bin/wrk", "/usr/local/bin/wrk"],
    hint: "Install it (Debian/Ubuntu: `sudo apt-get install wrk`) or point WRK_PATH at a wrk binary.",
  });
  const folder = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  const scriptFile = join(folder, "load.lua");
  writeFileSync(scriptFile, luaScript(options, randomBytes(4).toString("hex")));
  const args = [
    `-t${WRK_THREADS}`,
    `-c${options.connections}`,
    `-d${seconds}s`,
    `--timeout`,
    REQUEST_TIMEOUT,
    "-s",
    scriptFile,
  ];
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(...pinned("BENCH_WRK_CPUS", wrkPath!, [...args, options.url]), {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`)),
      );
    });
    const lines = output.split("\n");
    const resultLine = lines.find((line) => line.startsWith(RESULT_MARK));
    if (!resultLine) throw new Error(`wrk printed no result: ${output}`);
    const result = JSON.parse(resultLine.slice(RESULT_MARK.length)) as {
      requests: number;
      durationMicros: number;
      p50Micros: number;
      p99Micros: number;
      errors: number;
      cpuTicks: number;
    };
    const statusCounts: Record<string, number> = {};
    for (const line of lines.filter((line) => line.startsWith(STATUS_MARK))) {
      const [status, count] = line.slice(STATUS_MARK.length).split(" ");
      statusCounts[status!] = (statusCounts[status!] ?? 0) + Number(count);
    }
    const collected = lines
      .filter((line) => line.startsWith(COLLECT_MARK))
      .map((line) => line.slice(COLLECT_MARK.length));
    return { ...result, statusCounts, collected };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function cpuSnapshot(processes: ProcessGroups | undefined): Record<string, Map<number, number>> {
  const groups = processes?.() ?? {};
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, new Map(pids.map((pid) => [pid, processCpuMs(pid)]))]),
  );
}

/**
 * CPU milliseconds per group since `snapshot`. A process that started meanwhile (a database backend
 * that a pool opened again after it idled) counts whole: all of its time falls in the window.
 */
function cpuSince(
  snapshot: Record<string, Map<number, number>>,
  processes: ProcessGroups | undefined,
): Record<string, number> {
  const now = processes?.() ?? {};
  return Object.fromEntries(
    Object.entries(snapshot).map(([name, before]) => {
      let used = 0;
      for (const [pid, ms] of before) used += Math.max(0, processCpuMs(pid) - ms);
      for (const pid of now[name] ?? []) if (!before.has(pid)) used += processCpuMs(pid);
      return [name, used];
    }),
  );
}

/** Runs `options` against a warmed server with wrk, noting wrk's CPU time and the servers'; keeps what the warm-up collected. */
export async function measureLoad(options: LoadOptions): Promise<LoadFigures> {
  const warmup = options.warmupSeconds > 0 ? (await runWrk(options, options.warmupSeconds)).collected : [];
  const processesBefore = cpuSnapshot(options.processes);
  const result = await runWrk(options, options.seconds);
  const processesUsed = cpuSince(processesBefore, options.processes);
  const wallMs = result.durationMicros / 1000;
  return {
    requestsPerSecond: result.requests / (wallMs / 1000),
    requests: result.requests,
    p50: result.p50Micros / 1000,
    p99: result.p99Micros / 1000,
    errors: result.errors,
    statusCounts: result.statusCounts,
    collected: [...warmup, ...result.collected],
    generatorCpuShare: (result.cpuTicks * 1000) / CLOCK_TICKS_PER_SECOND / wallMs / WRK_THREADS,
    cpuMsPerRequest: Object.fromEntries(
      Object.entries(processesUsed).map(([name, used]) => [name, used / Math.max(result.requests, 1)]),
    ),
  };
}

/**
 * Several loads at once, each against its own server, measured as one (`together`). A process group
 * given to more than one load (PostgreSQL's) would be counted twice: give it to one.
 */
export async function measureTogether(loads: LoadOptions[]): Promise<LoadFigures> {
  return together(await Promise.all(loads.map((load) => measureLoad(load))));
}

/**
 * The figures of loads that ran at the same time as one: their rates and requests added, the worst
 * latencies, and each process group's CPU time shared over all their requests.
 */
export function together(parts: LoadFigures[]): LoadFigures {
  const requests = parts.reduce((sum, part) => sum + part.requests, 0);
  const groups = new Set(parts.flatMap((part) => Object.keys(part.cpuMsPerRequest)));
  return {
    requestsPerSecond: parts.reduce((sum, part) => sum + part.requestsPerSecond, 0),
    requests,
    p50: Math.max(...parts.map((part) => part.p50)),
    p99: Math.max(...parts.map((part) => part.p99)),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
    statusCounts: summedStatusCounts(parts),
    collected: parts.flatMap((part) => part.collected),
    // Each wrk has a core of its own to be bound by: the busiest one says whether one was.
    generatorCpuShare: Math.max(...parts.map((part) => part.generatorCpuShare)),
    cpuMsPerRequest: Object.fromEntries(
      [...groups].map((name) => [
        name,
        parts.reduce((sum, part) => sum + (part.cpuMsPerRequest[name] ?? 0) * part.requests, 0) / Math.max(requests, 1),
      ]),
    ),
  };
}

function summedStatusCounts(figures: LoadFigures[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const figure of figures) {
    for (const [status, count] of Object.entries(figure.statusCounts)) counts[status] = (counts[status] ?? 0) + count;
  }
  return counts;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

/** Figures of several equal-length runs as one: mean rate, median p50, worst p99, summed counts. */
export function combineRuns(runs: LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: mean(runs.map((run) => run.requestsPerSecond)),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    p50: median(runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    statusCounts: summedStatusCounts(runs),
    collected: runs.flatMap((run) => run.collected),
    // The busiest round decides whether the generator may have been the limit.
    generatorCpuShare: Math.max(...runs.map((run) => run.generatorCpuShare)),
    cpuMsPerRequest: Object.fromEntries(
      Object.keys(runs[0]?.cpuMsPerRequest ?? {}).map((name) => [
        name,
        mean(runs.map((run) => run.cpuMsPerRequest[name] ?? 0)),
      ]),
    ),
  };
}

export interface Rounds {
  seconds: number;
  warmupSeconds: number;
  /** Rounds a measured rate alternates with its baseline in. */
  rounds: number;
}

/**
 * Measures `subject` and its `baseline` in alternating short rounds after warming both, so that
 * both see the same machine: on a shared machine the load of other work moves by the minute.
 * What the warm-up's requests collected is kept, so that every acknowledged request can be checked.
 */
export async function compareUnderLoad(
  subject: Omit<LoadOptions, "seconds" | "warmupSeconds">,
  baseline: Omit<LoadOptions, "seconds" | "warmupSeconds">,
  { seconds, warmupSeconds, rounds }: Rounds,
): Promise<{ subject: LoadFigures; baseline: LoadFigures }> {
  const roundSeconds = Math.max(1, Math.round(seconds / rounds));
  await runWrk({ ...baseline, seconds: warmupSeconds, warmupSeconds: 0 }, warmupSeconds);
  const warmup = await runWrk({ ...subject, seconds: warmupSeconds, warmupSeconds: 0 }, warmupSeconds);
  const subjectRuns: LoadFigures[] = [];
  const baselineRuns: LoadFigures[] = [];
  for (let round = 0; round < rounds; round++) {
    baselineRuns.push(await measureLoad({ ...baseline, seconds: roundSeconds, warmupSeconds: 0 }));
    subjectRuns.push(await measureLoad({ ...subject, seconds: roundSeconds, warmupSeconds: 0 }));
  }
  const measured = combineRuns(subjectRuns);
  return {
    subject: { ...measured, collected: [...warmup.collected, ...measured.collected] },
    baseline: combineRuns(baselineRuns),
  };
}

/** Requests that did not get the `expected` status: wrk's errors (statuses of 400 and above among them) and any other status. */
export function failedRequests(figures: LoadFigures, expected: string): number {
  const otherStatuses = Object.entries(figures.statusCounts)
    .filter(([status]) => status !== expected && Number(status) < 400)
    .reduce((total, [, count]) => total + count, 0);
  return figures.errors + otherStatuses;
}

/** True when wrk used so much of its core that it, not the server, may have set the rate. */
export const generatorBound = (...figures: LoadFigures[]) =>
  figures.some((figure) => figure.generatorCpuShare > GENERATOR_BOUND_SHARE);

/**
 * "load generator used 34 % of a core (of 2)", for every figure given, marked "bound by the load
 * generator" when one went over GENERATOR_BOUND_SHARE: such a row fails whatever its ratio.
 */
export function generatorNote(...figures: LoadFigures[]): string {
  const shares = figures.map((figure) => `${(figure.generatorCpuShare * 100).toFixed(0)} %`).join(" / ");
  const cores = WRK_THREADS === 1 ? "a core" : `its ${WRK_THREADS} threads' cores`;
  const note = `load generator (wrk) used ${shares} of ${cores} (of ${cpus().length})`;
  return generatorBound(...figures) ? `${note}: bound by the load generator` : note;
}

/** "server 1.3 ms, PostgreSQL 1.0 ms": what each process group spent on one request. */
export function cpuPerRequest(figures: LoadFigures): string {
  const label = (name: string) => (name === "postgres" ? "PostgreSQL" : name);
  return Object.entries(figures.cpuMsPerRequest)
    .map(([name, used]) => `${label(name)} ${used.toFixed(2)} ms`)
    .join(", ");
}
