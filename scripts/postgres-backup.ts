import { execFile, spawn, type ChildProcess } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { CommandError } from "./database-cli";
import { ensureDebianPackage } from "./debian-package.mjs";

const run = promisify(execFile);

/** Names the database in messages: its name and server, never the URL (which may hold a password). */
export function describePostgres(url: string) {
  const { pathname, host } = new URL(url);
  return `database ${decodeURIComponent(pathname.slice(1))} on ${host}`;
}

/** pg_dump, pg_restore and psql, from Debian's postgresql-client when they are not on the PATH. */
function clientPrograms() {
  const pgDump = ensureDebianPackage({
    packageName: "postgresql-client",
    paths: (process.env.PATH ?? "")
      .split(delimiter)
      .filter(Boolean)
      .map((folder) => join(folder, "pg_dump")),
    hint:
      "Install PostgreSQL's client programs, of the server's major version or newer " +
      "(Debian/Ubuntu: `sudo apt-get install postgresql-client`).",
  });
  return { pgDump, pgRestore: join(dirname(pgDump), "pg_restore"), psql: join(dirname(pgDump), "psql") };
}

/**
 * How the client programs reach the database: DATABASE_URL without its password, which they get
 * through the environment (PGPASSWORD) rather than their command line, which `ps` shows to everyone.
 */
function connectionOf(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: `--dbname=${parsed.toString()}`,
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** A client program's failure: `failure`, then what the program said. */
function clientError(failure: string, said: string) {
  const hint = /version mismatch|unsupported version/.test(said)
    ? "\nThe client programs must be of the server's major version or newer: install that version's " +
      "postgresql-client (PostgreSQL's apt repository, apt.postgresql.org, has every version)."
    : "";
  return new CommandError(`${failure}\n${said.trim()}${hint}`);
}

/** Runs a client program; its failure is a CommandError carrying what the program said. */
async function runClient(program: string, args: string[], env: NodeJS.ProcessEnv, failure: string) {
  try {
    return (await run(program, args, { env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw clientError(failure, (error as { stderr?: string }).stderr ?? String(error));
  }
}

/**
 * Starts a client program, collecting what it says on stderr (and why it could not start). `exited`
 * gives its exit code, null when it was killed.
 */
function startClient(program: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(program, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let said = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (said += chunk));
  // A program that could not start closes too, after this.
  child.on("error", (error) => (said += String(error)));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, exited, said: () => said };
}

/** Kills a client program that is still running (Node's kill() of one that never started signals our own process group). */
function stop(child: ChildProcess) {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill();
}

/** The versions a custom-format archive's header names, which also shows that pg_restore can read it back. */
async function archiveHeader(pgRestore: string, file: string) {
  const contents = await runClient(
    pgRestore,
    ["--list", file],
    process.env,
    `${file} is not a backup of a PostgreSQL database (npm run db:backup makes one when DATABASE_URL is set).`,
  );
  const version = (label: string) => new RegExp(`^;\\s+${label}:\\s+(\\S+)`, "m").exec(contents)?.[1] ?? "unknown";
  return {
    contents,
    server: version("Dumped from database version"),
    pgDump: version("Dumped by pg_dump version"),
  };
}

/** Writes a pg_dump archive (custom format) of the whole database to `file`; the site may keep running. */
export async function backupPostgres(url: string, file: string) {
  const { pgDump, pgRestore } = clientPrograms();
  const { dbname, env } = connectionOf(url);
  await runClient(pgDump, ["--format=custom", `--file=${file}`, dbname], env, "pg_dump failed:");
  const { server, pgDump: dumpedBy } = await archiveHeader(pgRestore, file);
  return `PostgreSQL ${server}, pg_dump ${dumpedBy}`;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// What is not an extension's own (pg_trgm's functions and types live in public too).
const notExtensionMember = (catalog: string, alias: string) =>
  `not exists (select from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${alias}.oid and d.deptype = 'e')`;

/** The app's tables that hold a row, by name. */
async function tablesWithRows(client: pg.Client): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select c.oid::regclass::text as name from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and ${notExtensionMember("pg_class", "c")}
     order by 1`,
  );
  const filled: string[] = [];
  for (const { name } of tables) {
    const { rows } = await client.query<{ filled: boolean }>(`select exists (select from ${name}) as filled`);
    if (rows[0]!.filled) filled.push(name);
  }
  return filled;
}

/**
 * The statements that drop what the migrations made (the drizzle schema; the functions, tables,
 * views, sequences and types in public) so that the backup is restored into nothing, whatever
 * version made the database that was there. The schema public itself stays, with its owner and
 * grants, and so do extensions.
 */
async function dropAppObjects(client: pg.Client): Promise<string[]> {
  // Names qualified with their schema, for psql's session whatever its search_path.
  await client.query("set search_path = ''");
  const { rows: objects } = await client.query<{ kind: string; name: string }>(
    `select kind, name from (
       select 1 as step, 'routine' as kind, p.oid::regprocedure::text as name from pg_proc p
       where p.pronamespace = 'public'::regnamespace and ${notExtensionMember("pg_proc", "p")}
       union all
       select 2, case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' else 'table' end,
              c.oid::regclass::text from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S') and ${notExtensionMember("pg_class", "c")}
       union all
       select 3, 'type', t.oid::regtype::text from pg_type t
       where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r') and ${notExtensionMember("pg_type", "t")}
     ) app_object order by step`,
  );
  // Dropping one object may have dropped others with it already.
  return [
    "drop schema if exists drizzle cascade",
    ...objects.map(({ kind, name }) => `drop ${kind} if exists ${name} cascade`),
  ];
}

/**
 * Runs `drops`, then the archive's SQL (`pg_restore --file=-`), in one transaction of one psql
 * session, so that a restore that fails anywhere leaves the database as it was. The COMMIT is ours,
 * written only once pg_restore has exited with 0: psql's --single-transaction would commit at the
 * end of its input, which a pg_restore or a command that died part-way would give it too. psql that
 * stops without it (killed, or at its input's end) closes its session, and the server rolls back.
 */
async function replaceInOneTransaction(url: string, file: string, drops: string[]) {
  const { pgRestore, psql } = clientPrograms();
  const { dbname, env } = connectionOf(url);
  const session = startClient(psql, ["--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=-", dbname], env);
  // The script's selects print results, of no use here: what goes wrong is on stderr.
  session.child.stdout.resume();
  // A psql that stopped at an error says so by its exit code; writing to it after that fails too.
  session.child.stdin.on("error", () => {});
  const script = startClient(pgRestore, ["--no-owner", "--no-acl", "--file=-", file], process.env);
  script.child.stdin.end();
  let sessionEnded = false;
  const sessionEnd = session.exited.then((code) => {
    sessionEnded = true;
    stop(script.child);
    return code;
  });
  session.child.stdin.write(
    ["set client_min_messages = warning;", "begin;", ...drops.map((drop) => `${drop};`), ""].join("\n"),
  );
  script.child.stdout.pipe(session.child.stdin, { end: false });
  const scriptCode = await script.exited;
  // pg_restore failed by itself, rather than being stopped because psql had ended.
  const scriptFailed = scriptCode !== 0 && !sessionEnded;
  if (scriptCode === 0) session.child.stdin.end("\ncommit;\n");
  else stop(session.child);
  if ((await sessionEnd) === 0 && scriptCode === 0) return;
  const unchanged = `nothing was changed in the ${describePostgres(url)}. Fix the cause and restore again.`;
  throw scriptFailed
    ? clientError(`pg_restore failed: ${unchanged}`, script.said())
    : clientError(`psql failed: ${unchanged}`, session.said());
}

/**
 * Restores a pg_dump archive into the database, refusing when one of the app's tables holds a row
 * unless `force`. Returns how many migrations the restored database has had.
 */
export async function restorePostgres(url: string, file: string, force: boolean): Promise<number> {
  const { pgRestore } = clientPrograms();
  const { contents } = await archiveHeader(pgRestore, file);
  if (!/ TABLE drizzle __drizzle_migrations /.test(contents)) {
    throw new CommandError(`${file} holds no database of this site: it has no drizzle.__drizzle_migrations table.`);
  }
  const drops = await withClient(url, async (client) => {
    const filled = await tablesWithRows(client);
    if (filled.length > 0 && !force) {
      const named =
        filled.length > 3 ? `${filled.slice(0, 3).join(", ")} and ${filled.length - 3} more` : filled.join(", ");
      throw new CommandError(
        `The ${describePostgres(url)} holds data (in ${named}): restoring would replace it. Run again with ` +
          "--force to replace it (back it up first), or restore into an empty database.",
      );
    }
    return dropAppObjects(client);
  });
  await replaceInOneTransaction(url, file, drops);
  return withClient(url, async (client) => {
    // pg_restore copies no planner statistics: without them the first queries could be planned blind.
    await client.query("analyze");
    const { rows } = await client.query<{ count: number }>(
      "select count(*)::int as count from drizzle.__drizzle_migrations",
    );
    return rows[0]!.count;
  });
}
