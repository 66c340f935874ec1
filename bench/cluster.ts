import { cpus } from "node:os";
import { bookingsOnlyLua } from "./lib/booking-load";
import {
  combineRuns,
  cpuPerRequest,
  generatorBound,
  generatorNote,
  measureLoad,
  measureTogether,
  type LoadFigures,
  type LoadOptions,
} from "./lib/load";
import { postgresPids } from "./lib/process-cpu";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, startServer, type BenchServer } from "./lib/server";
import { ordersStored } from "./bookings";
import { loadRounds, type BenchSettings } from "./settings";

/** The workers measured against one process: 2 here, as many as a bigger machine has cores for (BENCH_WORKERS). */
const WORKERS = Math.max(2, Math.floor(Number(process.env.BENCH_WORKERS) || 2));
/** Three quarters of a core's worth per worker: 1.5 with 2 workers, 6 with 8. */
const GOAL_RATIO = 0.75 * WORKERS;
const CONNECTIONS = 50;

/** "server 1.9 cores, PostgreSQL 0.6, wrk 0.3": how many cores each used while measuring. */
function coresUsed(figures: LoadFigures): string {
  const cores = (name: string) => ((figures.cpuMsPerRequest[name] ?? 0) * figures.requestsPerSecond) / 1000;
  return `server ${cores("server").toFixed(2)} cores, PostgreSQL ${cores("postgres").toFixed(2)}, wrk ${figures.generatorCpuShare.toFixed(2)}`;
}

/**
 * The most WEB_CONCURRENCY=WORKERS could gain over 1 here, from what a booking cost with one process: that
 * process has one core, while all the processes share every core with PostgreSQL and wrk.
 */
function ratioCeiling(single: LoadFigures, cores: number): number {
  const server = single.cpuMsPerRequest.server ?? 0;
  const generator = (single.generatorCpuShare * 1000) / single.requestsPerSecond;
  const perBooking = server + (single.cpuMsPerRequest.postgres ?? 0) + generator;
  const allCores = (cores * 1000) / perBooking;
  return Math.min((WORKERS * 1000) / server, allCores) / Math.min(1000 / server, allCores);
}

/** A warm-up's slices, and how near the last ones' server CPU per booking must be to call it steady. */
const WARMUP_SLICE_SECONDS = 2;
const STEADY_SLICES = 3;
const STEADY_SPREAD = 0.05;
const WARMUP_MAX_SECONDS = 40;

/**
 * Loads an arrangement until a booking's server CPU has settled: at least `minSeconds`, then until
 * the last slices are within 5 % of their mean, at most 40 s. A process compiles and grows its heap
 * for a while under load, and each of several workers gets only its share of the requests, so a
 * fixed warm-up leaves more of that work in the workers' figures than in one process's. Returns what
 * the warm-up's bookings collected and how long it took.
 */
async function warmUp(
  measure: (seconds: number) => Promise<LoadFigures>,
  minSeconds: number,
): Promise<{ collected: string[]; seconds: number }> {
  const slices: LoadFigures[] = [];
  const serverCpu = (slice: LoadFigures) => slice.cpuMsPerRequest.server ?? 0;
  const steady = () => {
    if (slices.length * WARMUP_SLICE_SECONDS < minSeconds || slices.length < STEADY_SLICES) return false;
    const last = slices.slice(-STEADY_SLICES).map(serverCpu);
    const mean = last.reduce((sum, value) => sum + value, 0) / last.length;
    return last.every((value) => Math.abs(value - mean) <= STEADY_SPREAD * mean);
  };
  while (!steady() && slices.length * WARMUP_SLICE_SECONDS < WARMUP_MAX_SECONDS) {
    slices.push(await measure(WARMUP_SLICE_SECONDS));
  }
  return { collected: slices.flatMap((slice) => slice.collected), seconds: slices.length * WARMUP_SLICE_SECONDS };
}

/** What the loads of one arrangement of servers measured, every round and warm-up of it together. */
type Arrangement = { servers: BenchServer[]; figures: LoadFigures; warmedSeconds: number };

/**
 * Bookings/s of a server with WEB_CONCURRENCY=WORKERS against one with 1, on PostgreSQL, in alternating
 * rounds of the bookings bench's load; each server and its database is its own. WORKERS separate
 * one-process servers, loaded together with the same connections shared out, take their turn too:
 * what a booking costs there against the workers tells what the workers share (the primary, the port)
 * from what any processes sharing these cores would pay. Afterwards every acknowledged booking must
 * be stored.
 */
export async function clusterUnderLoad(settings: BenchSettings): Promise<ResultRow[]> {
  const postgresAdminUrl = await postgresForBench();
  if (!postgresAdminUrl) {
    return [{ figure: "Bookings/s, 2 workers against 1", value: "not measured: needs PostgreSQL", pass: false }];
  }
  const servers: BenchServer[] = [];
  try {
    const start = async (workers: number, port: number) => {
      const server = await startServer({ kind: "postgres", port, postgresAdminUrl, workers });
      servers.push(server);
      return server;
    };
    const cluster = await start(WORKERS, settings.serverPort);
    const single = await start(1, settings.baselinePort);
    const separate: BenchServer[] = [];
    for (let index = 0; index < WORKERS; index++) separate.push(await start(1, settings.serverPort + 10 + index));

    // The PostgreSQL share is every PostgreSQL process on the machine, so the other servers' idle backends too.
    // Made for every run: each run's travellers must come from addresses of their own (bookingLua).
    const load = (server: BenchServer, connections = CONNECTIONS, withPostgres = true): LoadOptions => ({
      url: server.origin,
      connections,
      lua: bookingsOnlyLua(),
      seconds: 0,
      warmupSeconds: 0,
      processes: () => ({ server: server.pids(), ...(withPostgres ? { postgres: postgresPids() } : {}) }),
    });
    const turns: Array<{ servers: BenchServer[]; measure: (seconds: number) => Promise<LoadFigures> }> = [
      { servers: [single], measure: (seconds) => measureLoad({ ...load(single), seconds }) },
      { servers: [cluster], measure: (seconds) => measureLoad({ ...load(cluster), seconds }) },
      {
        servers: separate,
        measure: (seconds) =>
          measureTogether(
            separate.map((server, index) => ({
              ...load(server, Math.ceil(CONNECTIONS / WORKERS), index === 0),
              seconds,
            })),
          ),
      },
    ];
    const { seconds, warmupSeconds, rounds } = loadRounds(settings);
    const warmups: Array<{ collected: string[]; seconds: number }> = [];
    for (const turn of turns) warmups.push(await warmUp(turn.measure, warmupSeconds));
    const runs: LoadFigures[][] = turns.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [index, turn] of turns.entries())
        runs[index]!.push(await turn.measure(Math.max(1, Math.round(seconds / rounds))));
    }
    const [alone, workers, apart] = turns.map((turn, index): Arrangement => {
      const figures = combineRuns(runs[index]!);
      return {
        servers: turn.servers,
        figures: { ...figures, collected: [...warmups[index]!.collected, ...figures.collected] },
        warmedSeconds: warmups[index]!.seconds,
      };
    }) as [Arrangement, Arrangement, Arrangement];

    let acknowledged = 0;
    let stored = 0;
    for (const { servers: arranged, figures } of [alone, workers, apart]) {
      const ids = new Set(figures.collected);
      acknowledged += ids.size;
      // Each order is in the database of the server that took it, and its id in no other.
      for (const server of arranged) stored += await ordersStored(server, [...ids]);
    }
    const unexpected = (figures: LoadFigures) =>
      Object.entries(figures.statusCounts)
        .filter(([status]) => status !== "302")
        .reduce((total, [, count]) => total + count, 0);
    const errors = [alone, workers, apart].reduce(
      (total, { figures }) => total + figures.errors + unexpected(figures),
      0,
    );
    const subject = workers.figures;
    const baseline = alone.figures;
    const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
    const serverCpu = (figures: LoadFigures) => figures.cpuMsPerRequest.server ?? 0;
    return [
      {
        figure: `Bookings/s with WEB_CONCURRENCY=${WORKERS} against 1 (postgres, ${CONNECTIONS} connections, ${cpus().length} cores shared with PostgreSQL and wrk); ${generatorNote(subject, baseline)}`,
        value: perSecond(subject.requestsPerSecond),
        baseline: `${perSecond(baseline.requestsPerSecond)} with 1 process`,
        ratio: ratio.toFixed(2),
        goal: `≥ ${GOAL_RATIO}`,
        pass: ratio >= GOAL_RATIO && !generatorBound(subject, baseline),
      },
      {
        figure: `Booking latency p50 / p99, ${WORKERS} workers and 1 process`,
        value: `${ms(subject.p50)} / ${ms(subject.p99)}`,
        baseline: `${ms(baseline.p50)} / ${ms(baseline.p99)}`,
        pass: null,
      },
      {
        figure: `CPU time per booking, and cores used while measuring, ${WORKERS} workers and 1 process`,
        value: `${cpuPerRequest(subject)}; ${coresUsed(subject)}`,
        baseline: `${cpuPerRequest(baseline)}; ${coresUsed(baseline)}`,
        pass: null,
      },
      {
        figure: `Server CPU per booking, ${WORKERS} workers against 1 process, each warmed up until it was steady`,
        value: `${serverCpu(subject).toFixed(2)} ms (warmed up ${workers.warmedSeconds} s)`,
        baseline: `${serverCpu(baseline).toFixed(2)} ms (warmed up ${alone.warmedSeconds} s)`,
        ratio: (serverCpu(subject) / serverCpu(baseline)).toFixed(2),
        goal: "≤ 1.15",
        pass: serverCpu(subject) <= 1.15 * serverCpu(baseline),
      },
      {
        figure: `The same for ${WORKERS} separate one-process servers loaded at once (${Math.ceil(CONNECTIONS / WORKERS)} connections each, a database each): what sharing these cores costs any processes, against what the workers cost (${generatorNote(apart.figures)})`,
        value: `${perSecond(apart.figures.requestsPerSecond)}; ${cpuPerRequest(apart.figures)}; ${coresUsed(apart.figures)} (warmed up ${apart.warmedSeconds} s)`,
        baseline: `workers ${serverCpu(subject).toFixed(2)} ms`,
        ratio: (serverCpu(apart.figures) / serverCpu(baseline)).toFixed(2),
        pass: null,
      },
      {
        figure: `Ceiling of that ratio on ${cpus().length} cores, from the CPU time per booking of 1 process (server, PostgreSQL, wrk)`,
        value: ratioCeiling(baseline, cpus().length).toFixed(2),
        pass: null,
      },
      {
        figure: `Booking errors, and acknowledged bookings found in the database afterwards (${WORKERS} workers, 1 process and ${WORKERS} separate)`,
        value: `${errors} errors; ${stored} of ${acknowledged} stored`,
        goal: "0 errors; all stored",
        pass: errors === 0 && stored === acknowledged && acknowledged > 0,
      },
    ];
  } finally {
    for (const server of servers) await server.dispose();
  }
}
