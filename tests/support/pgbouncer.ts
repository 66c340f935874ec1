import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ensureDebianPackage } from "../../scripts/debian-package.mjs";
import { freePort } from "./free-port";

// PgBouncer in transaction mode on a loopback port, in front of one PostgreSQL database: what an
// operator puts between many instances and one PostgreSQL (issue 25). The tests and the bench share it.

export interface PgBouncer {
  /** The database's URL through PgBouncer: same user, password and database name, PgBouncer's port. */
  url: string;
  /** PgBouncer's process, for its CPU time. */
  pid: number;
  /** PgBouncer's own figures for the database's pool (its admin console's SHOW POOLS). */
  pool(): Promise<PoolFigures>;
  stop(): Promise<void>;
}

export interface PoolFigures {
  /** Client connections PgBouncer holds for the database, served or waiting. */
  clients: number;
  /** Of those, the ones waiting for a server connection. */
  waiting: number;
  /** Connections to PostgreSQL, in use or not. */
  servers: number;
}

/**
 * The user PgBouncer drops to: it refuses to run as root. Its folder must be readable by that user,
 * and the uid is what to give it to.
 */
function unprivilegedUser(): { name: string; uid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      return { name, uid: Number(execFileSync("id", ["-u", name], { stdio: "pipe" }).toString()) };
    } catch {
      // No such user here: try the next.
    }
  }
  throw new Error("PgBouncer refuses to run as root, and neither a postgres nor a nobody user exists");
}

/** PgBouncer's version from `pgbouncer --version` ("PgBouncer 1.18.0"), as [major, minor]. */
function versionOf(binary: string): [number, number] {
  const found = /PgBouncer (\d+)\.(\d+)/.exec(execFileSync(binary, ["--version"]).toString());
  if (!found) throw new Error(`${binary} --version did not name a PgBouncer version`);
  return [Number(found[1]), Number(found[2])];
}

/** A value in PgBouncer's auth_file: double-quoted, a double quote written twice. */
const authFileValue = (value: string) => `"${value.replaceAll('"', '""')}"`;

/**
 * Starts PgBouncer (Debian's package, installed when missing) in transaction mode in front of the
 * PostgreSQL database `databaseUrl` names, with at most `serverConnections` connections to it, and
 * waits until a query goes through. Clients are trusted (it listens on loopback only); PgBouncer logs
 * in to PostgreSQL as the URL's user, with its password if it has one.
 */
export async function startPgBouncer({
  databaseUrl,
  serverConnections,
}: {
  databaseUrl: string;
  serverConnections: number;
}): Promise<PgBouncer> {
  const binary = ensureDebianPackage({
    packageName: "pgbouncer",
    paths: [process.env.PGBOUNCER_PATH, "/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"],
    hint: "Install it (Debian/Ubuntu: `sudo apt-get install pgbouncer`) or point PGBOUNCER_PATH at a pgbouncer binary.",
  });
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username) || "postgres";
  const database = decodeURIComponent(target.pathname.slice(1));
  if (!/^[\w.-]+$/.test(database)) throw new Error(`PgBouncer needs a plain database name, not "${database}"`);
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), "pgbouncer-"));
  const authFile = join(folder, "users.txt");
  const configFile = join(folder, "pgbouncer.ini");
  const logFile = join(folder, "pgbouncer.log");
  // PgBouncer 1.21 and later can keep protocol-level prepared statements across server connections;
  // switched off, any PgBouncer behaves as Debian 12's 1.18 does, which cannot.
  const [major, minor] = versionOf(binary);
  const knowsPreparedStatements = major > 1 || minor >= 21;
  writeFileSync(authFile, `${authFileValue(user)} ${authFileValue(decodeURIComponent(target.password))}\n`);
  writeFileSync(
    configFile,
    [
      "[databases]",
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${authFile}`,
      `admin_users = ${user}`,
      "pool_mode = transaction",
      `default_pool_size = ${serverConnections}`,
      `max_db_connections = ${serverConnections}`,
      ...(knowsPreparedStatements ? ["max_prepared_statements = 0"] : []),
      "",
    ].join("\n"),
  );
  const runAs = unprivilegedUser();
  if (runAs) for (const path of [folder, authFile, configFile]) chownSync(path, runAs.uid, 0);

  // In the foreground PgBouncer logs to stderr, configuration errors included: all of it goes to the file.
  const logFd = openSync(logFile, "a");
  const child = spawn(binary, [...(runAs ? ["-u", runAs.name] : []), configFile], {
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  const exited = once(child, "exit");
  const pooled = new URL(target);
  pooled.hostname = "127.0.0.1";
  pooled.port = String(port);
  pooled.search = "";
  const admin = new URL(pooled);
  admin.pathname = "/pgbouncer";

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM is PgBouncer's immediate shutdown; SIGINT would wait for every client to leave.
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };

  const bouncer: PgBouncer = {
    url: pooled.toString(),
    pid: child.pid!,
    stop,
    async pool() {
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        // The admin console speaks the simple query protocol only: no parameters.
        const { rows } = await client.query<Record<string, string>>("show pools");
        const row = rows.find((pool) => pool.database === database && pool.user === user);
        const count = (...columns: string[]) =>
          columns.reduce((total, column) => total + Number(row?.[column] ?? 0), 0);
        return {
          clients: count("cl_active", "cl_waiting"),
          waiting: count("cl_waiting"),
          servers: count("sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login"),
        };
      } finally {
        await client.end();
      }
    },
  };

  const deadline = Date.now() + 15_000;
  let lastError: unknown;
  while (Date.now() < deadline && child.exitCode === null) {
    const client = new pg.Client({ connectionString: bouncer.url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query("select 1");
      return bouncer;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
  const output = readFileSync(logFile, "utf8");
  await stop();
  throw new Error(
    `PgBouncer did not pass a query to PostgreSQL (last error: ${String(lastError)}); its log:\n${output}`,
  );
}
