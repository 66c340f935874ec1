import { cpus } from "node:os";
import autocannon from "autocannon";
import { processCpuMs } from "./process-cpu";

/** The processes a load's CPU time is read from, by name: `{ server: [pid], postgres: [...] }`. */
export type ProcessGroups = () => Record<string, number[]>;

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds measured, after `warmupSeconds` of the same load whose figures are thrown away. */
  seconds: number;
  warmupSeconds: number;
  requests?: autocannon.Request[];
  /** Whose CPU time to charge the measured requests with. */
  processes?: ProcessGroups;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCounts: Record<string, number>;
  /** Share of one core the load generator (this process) used while measuring. */
  generatorCpuShare: number;
  /** CPU milliseconds each process group (`LoadOptions.processes`) spent per request. */
  cpuMsPerRequest: Record<string, number>;
}

function cpuSnapshot(processes: ProcessGroups | undefined): Record<string, Map<number, number>> {
  const groups = processes?.() ?? {};
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, new Map(pids.map((pid) => [pid, processCpuMs(pid)]))]),
  );
}

/** CPU milliseconds per group since `snapshot`, from the processes still running. */
function cpuSince(snapshot: Record<string, Map<number, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(snapshot).map(([name, before]) => {
      let used = 0;
      for (const [pid, ms] of before) used += Math.max(0, processCpuMs(pid) - ms);
      return [name, used];
    }),
  );
}

function fire(options: LoadOptions, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    requests: options.requests,
  });
}

/** Runs `options` against a warmed server with autocannon, in this process, noting its CPU time. */
export async function measureLoad(options: LoadOptions): Promise<LoadFigures> {
  if (options.warmupSeconds > 0) await fire(options, options.warmupSeconds);
  const processesBefore = cpuSnapshot(options.processes);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await fire(options, options.seconds);
  const cpu = process.cpuUsage(cpuBefore);
  const processesUsed = cpuSince(processesBefore);
  const wallMicros = (performance.now() - started) * 1000;
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
  );
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    statusCounts,
    generatorCpuShare: (cpu.user + cpu.system) / wallMicros,
    cpuMsPerRequest: Object.fromEntries(
      Object.entries(processesUsed).map(([name, used]) => [name, used / Math.max(result.requests.total, 1)]),
    ),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

/** Figures of several equal-length runs as one: mean rate, median p50, worst p99, summed counts. */
function combine(runs: LoadFigures[]): LoadFigures {
  const statusCounts: Record<string, number> = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statusCounts))
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
  }
  return {
    requestsPerSecond: mean(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    statusCounts,
    generatorCpuShare: mean(runs.map((run) => run.generatorCpuShare)),
    cpuMsPerRequest: Object.fromEntries(
      Object.keys(runs[0]?.cpuMsPerRequest ?? {}).map((name) => [
        name,
        mean(runs.map((run) => run.cpuMsPerRequest[name] ?? 0)),
      ]),
    ),
  };
}

/**
 * Measures `subject` and its `baseline` in alternating short rounds after warming both, so that
 * both see the same machine: on a shared machine the load of other work moves by the minute.
 */
export async function compareUnderLoad(
  subject: Omit<LoadOptions, "seconds" | "warmupSeconds">,
  baseline: Omit<LoadOptions, "seconds" | "warmupSeconds">,
  { seconds, warmupSeconds, rounds }: { seconds: number; warmupSeconds: number; rounds: number },
): Promise<{ subject: LoadFigures; baseline: LoadFigures }> {
  const roundSeconds = Math.max(1, Math.round(seconds / rounds));
  await fire({ ...baseline, seconds: warmupSeconds, warmupSeconds: 0 }, warmupSeconds);
  await fire({ ...subject, seconds: warmupSeconds, warmupSeconds: 0 }, warmupSeconds);
  const subjectRuns: LoadFigures[] = [];
  const baselineRuns: LoadFigures[] = [];
  for (let round = 0; round < rounds; round++) {
    baselineRuns.push(await measureLoad({ ...baseline, seconds: roundSeconds, warmupSeconds: 0 }));
    subjectRuns.push(await measureLoad({ ...subject, seconds: roundSeconds, warmupSeconds: 0 }));
  }
  return { subject: combine(subjectRuns), baseline: combine(baselineRuns) };
}

export const generatorNote = (figures: LoadFigures) =>
  `load generator used ${(figures.generatorCpuShare * 100).toFixed(0)} % of a core (of ${cpus().length})`;
