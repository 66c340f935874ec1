import { cpus } from "node:os";
import { startPgBouncer } from "../tests/support/pgbouncer";
import { createEmptyPostgresDatabase } from "../tests/support/test-database";
import { ordersStored } from "./bookings";
import { bookingsOnlyLua } from "./lib/booking-load";
import {
  compareUnderLoad,
  cpuPerRequest,
  failedRequests,
  generatorBound,
  generatorNote,
  type LoadFigures,
} from "./lib/load";
import { postgresPids } from "./lib/process-cpu";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, startServer, type BenchServer } from "./lib/server";
import { loadRounds, type BenchSettings } from "./settings";

const WORKERS = 2;
/** PgBouncer's connections to PostgreSQL, where the two workers' pools may hold 20. */
const SERVER_CONNECTIONS = 4;
const GOAL_RATIO = 0.8;
const CONNECTIONS = 50;

/** CPU milliseconds a booking cost every process group measured. */
const cpuPerBooking = (figures: LoadFigures) =>
  Object.values(figures.cpuMsPerRequest).reduce((total, used) => total + used, 0);

/**
 * Bookings/s of a server that reaches PostgreSQL through PgBouncer in transaction mode
 * (DATABASE_POOLER=transaction, issue 25) against the same server connected directly, in
 * alternating rounds of the bookings bench's load. Both have WEB_CONCURRENCY=2, the default pool
 * size and a database of their own on the same PostgreSQL. Afterwards every acknowledged booking must
 * be stored, read directly from PostgreSQL.
 */
export async function poolerUnderLoad(settings: BenchSettings): Promise<ResultRow[]> {
  const postgresAdminUrl = await postgresForBench();
  if (!postgresAdminUrl) {
    return [
      { figure: "Bookings/s through PgBouncer against direct", value: "not measured: needs PostgreSQL", pass: false },
    ];
  }
  const cleanup: (() => Promise<unknown>)[] = [];
  try {
    const database = await createEmptyPostgresDatabase(postgresAdminUrl, "bench");
    cleanup.push(() => database.drop());
    const bouncer = await startPgBouncer({ databaseUrl: database.url, serverConnections: SERVER_CONNECTIONS });
    cleanup.push(() => bouncer.stop());
    const start = async (options: Parameters<typeof startServer>[0]) => {
      const server = await startServer(options);
      cleanup.push(() => server.dispose());
      return server;
    };
    const common = { kind: "postgres", workers: WORKERS } as const;
    const pooled = await start({
      ...common,
      port: settings.serverPort,
      databaseUrl: bouncer.url,
      extraEnv: { DATABASE_POOLER: "transaction" },
    });
    const direct = await start({ ...common, port: settings.baselinePort, postgresAdminUrl });
    const load = (server: BenchServer) => ({
      url: server.origin,
      connections: CONNECTIONS,
      lua: bookingsOnlyLua(),
      processes: () => ({
        server: server.pids(),
        postgres: postgresPids(),
        ...(server === pooled ? { PgBouncer: [bouncer.pid] } : {}),
      }),
    });
    const { subject, baseline } = await compareUnderLoad(load(pooled), load(direct), loadRounds(settings));

    const acknowledged = (figures: LoadFigures) => [...new Set(figures.collected)];
    const stored =
      (await ordersStored({ ...pooled, databaseUrl: database.url }, acknowledged(subject))) +
      (await ordersStored(direct, acknowledged(baseline)));
    const total = acknowledged(subject).length + acknowledged(baseline).length;
    const errors = failedRequests(subject, "302") + failedRequests(baseline, "302");
    const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
    const sides = "through PgBouncer and direct";
    return [
      {
        figure: `Bookings/s through PgBouncer in transaction mode (${SERVER_CONNECTIONS} server connections, DATABASE_POOLER=transaction) against direct connections, WEB_CONCURRENCY=${WORKERS} (postgres, ${CONNECTIONS} connections); ${generatorNote(subject, baseline)}`,
        value: perSecond(subject.requestsPerSecond),
        baseline: `${perSecond(baseline.requestsPerSecond)} direct`,
        ratio: ratio.toFixed(2),
        goal: `≥ ${GOAL_RATIO}`,
        pass: ratio >= GOAL_RATIO && !generatorBound(subject, baseline),
      },
      {
        figure: `Booking latency p50 / p99, ${sides}`,
        value: `${ms(subject.p50)} / ${ms(subject.p99)}`,
        baseline: `${ms(baseline.p50)} / ${ms(baseline.p99)}`,
        pass: null,
      },
      {
        figure: `CPU time per booking, ${sides}`,
        value: cpuPerRequest(subject),
        baseline: cpuPerRequest(baseline),
        pass: null,
      },
      {
        figure: `Ceiling of that ratio when the ${cpus().length} cores are the limit: CPU time per booking direct over through PgBouncer (server, PostgreSQL and PgBouncer)`,
        value: (cpuPerBooking(baseline) / cpuPerBooking(subject)).toFixed(2),
        pass: null,
      },
      {
        figure: `Booking errors, and acknowledged bookings found in the database afterwards (${sides})`,
        value: `${errors} errors; ${stored} of ${total} stored`,
        goal: "0 errors; all stored",
        pass: errors === 0 && stored === total && total > 0,
      },
    ];
  } finally {
    for (const step of cleanup.reverse()) await step();
  }
}
