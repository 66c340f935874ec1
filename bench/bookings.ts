import { inArray } from "drizzle-orm";
import { openDatabase, type DatabaseTarget } from "~/db/client.server";
import { orders } from "~/db/schema";
import { bookingsOnlyLua } from "./lib/booking-load";
import { compareUnderLoad, generatorBound, generatorNote, type LoadFigures, type ProcessGroups } from "./lib/load";
import { postgresPids } from "./lib/process-cpu";
import { ms, perSecond, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import { loadRounds, type BenchSettings } from "./settings";

const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 250;
const CONNECTIONS = 50;

/** How many of `orderIds` the server's database holds; a PGlite server must have stopped first. */
async function ordersStored(server: BenchServer, orderIds: string[]): Promise<number> {
  const target: DatabaseTarget = server.databaseUrl
    ? { kind: "postgres", url: server.databaseUrl }
    : { kind: "pglite", dataDir: server.dataDir! };
  const handle = await openDatabase(target);
  try {
    let found = 0;
    for (let start = 0; start < orderIds.length; start += 1000) {
      const chunk = orderIds.slice(start, start + 1000);
      const rows = await handle.db.select({ id: orders.id }).from(orders).where(inArray(orders.id, chunk));
      found += rows.length;
    }
    return found;
  } finally {
    await handle.close();
  }
}

/** "server 1.3 ms, PostgreSQL 1.0 ms": what each process group spent on one request. */
function cpuPerRequest(figures: LoadFigures): string {
  const label = (name: string) => (name === "postgres" ? "PostgreSQL" : name);
  return Object.entries(figures.cpuMsPerRequest)
    .map(([name, used]) => `${label(name)} ${used.toFixed(2)} ms`)
    .join(", ");
}

/**
 * POST /fast-track-form with distinct valid bookings at 50 connections, as a share of the same
 * server's GET /healthz in the same run; afterwards every acknowledged booking must be stored.
 * Stops the server (PGlite's folder can only be opened once it has).
 */
export async function bookingsUnderLoad(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  // PGlite runs inside the server; PostgreSQL's share is read from all its processes on the machine.
  const processes: ProcessGroups = () => ({
    server: [server.pid],
    ...(server.kind === "postgres" ? { postgres: postgresPids() } : {}),
  });
  const { subject: bookings, baseline: health } = await compareUnderLoad(
    { url: server.origin, connections: CONNECTIONS, lua: bookingsOnlyLua(), processes },
    { url: `${server.origin}/healthz`, connections: CONNECTIONS, processes },
    loadRounds(settings),
  );
  await server.stop();
  const acknowledged = new Set(bookings.collected);
  const stored = await ordersStored(server, [...acknowledged]);

  const unexpected = Object.entries(bookings.statusCounts)
    .filter(([status]) => status !== "302" && Number(status) < 400)
    .reduce((total, [, count]) => total + count, 0);
  const errors = bookings.errors + unexpected;
  const bound = generatorBound(bookings, health);
  const ratio = bookings.requestsPerSecond / health.requestsPerSecond;
  const onPostgres = server.kind === "postgres";
  return [
    {
      figure: `Bookings/s, POST /fast-track-form (${server.kind}, ${CONNECTIONS} connections); ${generatorNote(bookings, health)}`,
      value: perSecond(bookings.requestsPerSecond),
      baseline: `${perSecond(health.requestsPerSecond)} GET /healthz`,
      ratio: ratio.toFixed(2),
      goal: onPostgres ? `≥ ${GOAL_RATIO}` : undefined,
      pass: onPostgres ? ratio >= GOAL_RATIO && !bound : null,
    },
    {
      figure: `Booking latency p50 / p99 (${server.kind})`,
      value: `${ms(bookings.p50)} / ${ms(bookings.p99)}`,
      goal: onPostgres ? `p99 < ${GOAL_P99_MS} ms` : undefined,
      pass: onPostgres ? bookings.p99 < GOAL_P99_MS : null,
    },
    {
      figure: `CPU time per request, booking and GET /healthz (${server.kind})`,
      value: cpuPerRequest(bookings),
      baseline: `${cpuPerRequest(health)} GET /healthz`,
      pass: null,
    },
    {
      figure: `Booking errors, and acknowledged bookings found in the database afterwards (${server.kind})`,
      value: `${errors} errors; ${stored} of ${acknowledged.size} stored`,
      goal: "0 errors; all stored",
      pass: errors === 0 && stored === acknowledged.size && acknowledged.size > 0,
    },
  ];
}
