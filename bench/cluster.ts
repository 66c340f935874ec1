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

/** What the loads of one arrangement of servers measured, every round and warm-up of it together. */
type Arrangement = { servers: BenchServer[]; figures: LoadFigures };

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
    const load = (server: BenchServer, connections = CONNECTIONS, withPostgres = true): LoadOptions => ({
      url: server.origin,
      connections,
      lua: bookingsOnlyLua(),
      seconds: 0,
      warmupSeconds: 0,
      processes: () => ({ server: server.pids(), ...(withPostgres ? { postgres: postgresPids() } : {}) }),
    });
    const separateLoads = separate.map((server, index) => load(server, Math.ceil(CONNECTIONS / WORKERS), index === 0));
    const turns: Array<{ servers: BenchServer[]; measure: (seconds: number) => Promise<LoadFigures> }> = [
      { servers: [single], measure: (seconds) => measureLoad({ ...load(single), seconds }) },
      { servers: [cluster], measure: (seconds) => measureLoad({ ...load(cluster), seconds }) },
      {
        servers: separate,
        measure: (seconds) => measureTogether(separateLoads.map((options) => ({ ...options, seconds }))),
      },
    ];
    const { seconds, warmupSeconds, rounds } = loadRounds(settings);
    const warmups: LoadFigures[] = [];
    for (const turn of turns) warmups.push(await turn.measure(warmupSeconds));
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
        figure: `Server CPU per booking, ${WORKERS} workers against 1 process`,
        value: `${serverCpu(subject).toFixed(2)} ms`,
        baseline: `${serverCpu(baseline).toFixed(2)} ms`,
        ratio: (serverCpu(subject) / serverCpu(baseline)).toFixed(2),
        goal: "≤ 1.15",
        pass: serverCpu(subject) <= 1.15 * serverCpu(baseline),
      },
      {
        figure: `The same for ${WORKERS} separate one-process servers loaded at once (${Math.ceil(CONNECTIONS / WORKERS)} connections each, a database each): what sharing these cores costs any processes, against what the workers cost (${generatorNote(apart.figures)})`,
        value: `${perSecond(apart.figures.requestsPerSecond)}; ${cpuPerRequest(apart.figures)}; ${coresUsed(apart.figures)}`,
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
