import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { childProcesses, connectToWorker } from "../../tests/support/cluster-workers";
import { productionServerArgs } from "../../tests/support/production-node";
import { pinned } from "./pinning";

export type DatabaseKind = "pglite" | "postgres";

export interface BenchServer {
  origin: string;
  kind: DatabaseKind;
  /** The server's processes: the one process, or with several workers the primary and each worker. */
  pids(): number[];
  /** The fresh PostgreSQL database the server runs on (postgres only). */
  databaseUrl?: string;
  /** The embedded database's folder (pglite only); readable once the server has stopped. */
  dataDir?: string;
  /** Resident memory of the server and every process it started, in bytes. */
  rss(): number;
  stop(): Promise<void>;
  /** Stops the server if it runs, then drops its database or folder. */
  dispose(): Promise<void>;
}

const DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";

/** The PostgreSQL server the bench may create databases on: BENCH_DATABASE_URL, or a local one if it answers. */
export async function postgresForBench(): Promise<string | null> {
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function processTree(pid: number): number[] {
  return [pid, ...childProcesses(pid).flatMap(processTree)];
}

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(status.match(/^VmRSS:\s+(\d+) kB$/m)?.[1] ?? 0);
  return kilobytes * 1024;
}

/**
 * How many of a primary's workers take connections: a worker that does not listen yet is handed
 * none, and a load started then would leave it idle.
 */
async function workersListening(port: number, primary: number): Promise<number> {
  const workers = childProcesses(primary);
  const seen = new Set<number>();
  // The primary hands connections to the listening workers in turn.
  for (let attempt = 0; attempt < workers.length * 2; attempt++) {
    const { client, worker } = await connectToWorker(port, workers, 2_000);
    client.destroy();
    if (worker !== undefined) seen.add(worker);
  }
  return seen.size;
}

/** Waits until the server answers /healthz, and `allListening`. */
async function waitUntilHealthy(origin: string, child: ChildProcess, allListening: () => Promise<boolean>) {
  // A loaded machine can take minutes to boot the server; a broken one fails within these.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok && (await allListening())) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not answer ${origin}/healthz with all its processes within 3 minutes`);
}

/**
 * Starts the production build (`node server.js`) on a database of its own: a temporary PGlite
 * folder, or a fresh database created on `postgresAdminUrl`, or the PostgreSQL `databaseUrl` given
 * (which `dispose` then leaves to its owner); `workers` is its WEB_CONCURRENCY.
 */
export async function startServer(options: {
  kind: DatabaseKind;
  port: number;
  workers: number;
  postgresAdminUrl?: string;
  databaseUrl?: string;
  /** A loopback SMTP server to send the site's mails to, as production does; without one they stay held in the outbox. */
  smtpPort?: number;
  extraEnv?: Record<string, string>;
}): Promise<BenchServer> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${options.port}`,
    LOG_LEVEL: "warn",
    RETENTION_INTERVAL_MINUTES: "0",
    // The load generators speak for many clients through X-Forwarded-For (bench/lib/booking-load.ts).
    TRUST_PROXY: "loopback",
    SMTP_URL: options.smtpPort === undefined ? undefined : `smtp://127.0.0.1:${options.smtpPort}`,
    DATABASE_URL: undefined,
    WEB_CONCURRENCY: String(options.workers),
    ...options.extraEnv,
  };
  let databaseUrl: string | undefined;
  let dataDir: string | undefined;
  if (options.kind === "postgres" && options.databaseUrl) {
    databaseUrl = options.databaseUrl;
    env.DATABASE_URL = databaseUrl;
    env.APP_SECRET = randomBytes(32).toString("base64url");
  } else if (options.kind === "postgres") {
    if (!options.postgresAdminUrl) throw new Error("a PostgreSQL server is needed for a postgres bench server");
    const url = new URL(options.postgresAdminUrl);
    url.pathname = `/bench_${randomBytes(6).toString("hex")}`;
    databaseUrl = url.toString();
    await adminQuery(options.postgresAdminUrl, `create database "${url.pathname.slice(1)}"`);
    env.DATABASE_URL = databaseUrl;
    env.APP_SECRET = randomBytes(32).toString("base64url");
  } else {
    dataDir = mkdtempSync(join(tmpdir(), "bench-data-"));
    env.DATA_DIR = dataDir;
  }

  // BENCH_SERVER_NODE_ARGS profiles the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles".
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(...pinned("BENCH_SERVER_CPUS", process.execPath, [...nodeArgs, ...productionServerArgs()]), {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const origin = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
  };
  const server: BenchServer = {
    origin,
    kind: options.kind,
    pids: () => processTree(child.pid!),
    databaseUrl,
    dataDir,
    rss: () => server.pids().reduce((total, pid) => total + residentBytes(pid), 0),
    stop,
    async dispose() {
      await stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && options.postgresAdminUrl && !options.databaseUrl) {
        await adminQuery(
          options.postgresAdminUrl,
          `drop database if exists "${new URL(databaseUrl).pathname.slice(1)}"`,
        );
      }
    },
  };
  try {
    await waitUntilHealthy(
      origin,
      child,
      async () => options.workers === 1 || (await workersListening(options.port, child.pid!)) >= options.workers,
    );
  } catch (error) {
    await server.dispose();
    throw error;
  }
  return server;
}

/** The server's database, to check what it stored; a PGlite server must have stopped first. */
export function openServerDatabase(server: BenchServer): Promise<DatabaseHandle> {
  return openDatabase(
    server.databaseUrl ? { kind: "postgres", url: server.databaseUrl } : { kind: "pglite", dataDir: server.dataDir! },
  );
}
