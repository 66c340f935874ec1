import { execFile } from "node:child_process";
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

/** pg_dump and pg_restore, from Debian's postgresql-client when they are not on the PATH. */
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
  return { pgDump, pgRestore: join(dirname(pgDump), "pg_restore") };
}

/**
 * How pg_dump and pg_restore reach the database: DATABASE_URL without its password, which they get
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

/** Runs a client program; its failure is a CommandError carrying what the program said. */
async function runClient(program: string, args: string[], env: NodeJS.ProcessEnv, failure: string) {
  try {
    return (await run(program, args, { env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const said = ((error as { stderr?: string }).stderr ?? String(error)).trim();
    const hint = /version mismatch|unsupported version/.test(said)
      ? "\nThe client programs must be of the server's major version or newer: install that version's " +
        "postgresql-client (PostgreSQL's apt repository, apt.postgresql.org, has every version)."
      : "";
    throw new CommandError(`${failure}\n${said}${hint}`);
  }
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
 * Drops what the migrations made (the drizzle schema; the functions, tables, views, sequences and
 * types in public) so that the backup is restored into nothing, whatever version made the database
 * that was there. The schema public itself stays, with its owner and grants, and so do extensions.
 */
async function dropAppObjects(client: pg.Client) {
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
  await client.query("begin");
  try {
    await client.query("drop schema if exists drizzle cascade");
    // Dropping one object may have dropped others with it already.
    for (const { kind, name } of objects) await client.query(`drop ${kind} if exists ${name} cascade`);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
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
  await withClient(url, async (client) => {
    const filled = await tablesWithRows(client);
    if (filled.length > 0 && !force) {
      const named =
        filled.length > 3 ? `${filled.slice(0, 3).join(", ")} and ${filled.length - 3} more` : filled.join(", ");
      throw new CommandError(
        `The ${describePostgres(url)} holds data (in ${named}): restoring would replace it. Run again with ` +
          "--force to replace it (back it up first), or restore into an empty database.",
      );
    }
    await dropAppObjects(client);
  });
  const { dbname, env } = connectionOf(url);
  await runClient(
    pgRestore,
    ["--no-owner", "--no-acl", "--single-transaction", "--exit-on-error", dbname, file],
    env,
    `pg_restore failed and restored nothing; the app's tables that were there had been dropped. Fix the cause and restore again.`,
  );
  return withClient(url, async (client) => {
    // pg_restore copies no planner statistics: without them the first queries could be planned blind.
    await client.query("analyze");
    const { rows } = await client.query<{ count: number }>(
      "select count(*)::int as count from drizzle.__drizzle_migrations",
    );
    return rows[0]!.count;
  });
}
