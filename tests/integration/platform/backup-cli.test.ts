import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { is, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type DatabaseTarget, type OpenOptions } from "~/db/client.server";
import { knownMigrations } from "~/db/migrate.server";
import * as schema from "~/db/schema";
import { seedDatabase } from "../../../scripts/seed-database";
import { cliTestDatabase, DATA_DIR_IN_USE, runNpmScript } from "../../support/integration/npm-script";
import { book } from "../../support/integration/personal-data-fixtures";
import { createSignedInAccount } from "../../support/integration/requests";
import { createEmptyPostgresDatabase } from "../../support/test-database";

const database = cliTestDatabase();
const kind = database.kind;

// The password in DATABASE_URL, which no output may show: the test server's own, or one that its
// trust authentication ignores.
const PASSWORD =
  (kind === "postgres" && new URL(process.env.TEST_DATABASE_URL!).password) || "backup-test-password-9f3k";
const outputs: string[] = [];

/** `npm run db:<command> -- <args>` against the database `env` names (this file's by default). */
async function cli(command: "backup" | "restore", args: string[], env = withPassword(database.env())) {
  const result = await runNpmScript(`db:${command}`, args, env);
  outputs.push(result.output);
  return result;
}

function withPassword(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!env.DATABASE_URL) return env;
  const url = new URL(env.DATABASE_URL);
  url.password = PASSWORD;
  return { DATABASE_URL: url.toString() };
}

/** Every table of the schema, and the migrations applied. */
const TABLES = [
  ...(Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => `"${getTableConfig(table).name}"`),
  "drizzle.__drizzle_migrations",
];

/** Each table's rows, as text, in one order whatever order the database keeps them in. */
async function contentsOf(db: Database): Promise<Record<string, string[]>> {
  const contents: Record<string, string[]> = {};
  for (const table of TABLES) {
    const result = (await db.execute(sql.raw(`select to_jsonb(t)::text as row from ${table} t`))) as unknown as {
      rows: { row: string }[];
    };
    contents[table] = result.rows.map(({ row }) => row).sort();
  }
  return contents;
}

const made: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanUp of made) await cleanUp();
});

/** A database of its own to restore into, as a new server's would be: nothing yet. */
async function newDatabase(): Promise<{ env: NodeJS.ProcessEnv; target: DatabaseTarget }> {
  if (kind === "postgres") {
    const empty = await createEmptyPostgresDatabase(undefined, "backup");
    made.push(empty.drop);
    return { env: { DATABASE_URL: empty.url }, target: { kind, url: empty.url } };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "backup-restored-"));
  made.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dataDir }, target: { kind, dataDir } };
}

/** Opens the database as the server does at boot (applying pending migrations), for `work`, then closes it. */
async function withDatabase<T>(target: DatabaseTarget, work: (db: Database) => Promise<T>, options?: OpenOptions) {
  const handle = await openDatabase(target, options);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

describe(`npm run db:backup and db:restore on ${kind}`, () => {
  it(
    "backs up a database with bookings, members and accounts, and restores every row of it; " +
      "a database that holds data is replaced only with --force",
    { timeout: 240_000 },
    async () => {
      await seedDatabase(database.db(), { orders: 40, customers: 20, memberships: 8 }, () => {});
      await book(database.db(), { email: "restored@example.com", pay: "paid" });
      await createSignedInAccount(database.db(), { admin: true });
      const original = await contentsOf(database.db());
      const filled = Object.keys(original).filter((table) => original[table]!.length > 0);
      // rate_limit is unlogged: a copy of a running database would come back without its rows.
      const expected = ["orders", "payments", "memberships", "invoices", "outbox", "user", "session", "rate_limit"];
      expect(filled).toEqual(
        expect.arrayContaining([...expected.map((table) => `"${table}"`), "drizzle.__drizzle_migrations"]),
      );

      if (kind === "pglite") {
        // This process holds the embedded database, as a running server would.
        const refused = await cli("backup", []);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(DATA_DIR_IN_USE);
      }
      await database.release();

      const backedUp = await cli("backup", []);
      expect(backedUp.code).toBe(0);
      const file = /to (backups\/\S+) \([\d.]+ MB\)\.\n$/.exec(backedUp.output)?.[1];
      made.push(async () => rmSync(file!, { force: true }));
      expect(file).toMatch(
        kind === "pglite" ? /^backups\/pglite-[\dTZ-]+\.tar\.gz$/ : /^backups\/postgres-[\dTZ-]+\.dump$/,
      );
      expect(backedUp.output).toMatch(
        kind === "pglite"
          ? /^Backed up the embedded database in \S+ \(PostgreSQL [\d.]+ in PGlite\) to /
          : /^Backed up the database test_\w+ on 127\.0\.0\.1:\d+ \(PostgreSQL [\d.]+, pg_dump [\d.]+\) to /,
      );
      expect(statSync(file!).mode & 0o777).toBe(0o600);

      const restored = await newDatabase();
      const into = await cli("restore", [file!], withPassword(restored.env));
      expect(into).toMatchObject({ code: 0, output: `Restored ${file} into the ${nameOf(restored.env)}.\n` });
      expect(await withDatabase(restored.target, contentsOf)).toEqual(original);

      // Someone books on the restored site: the backup no longer matches it.
      const changed = await withDatabase(restored.target, async (db) => {
        await book(db, { email: "after-restore@example.com" });
        return contentsOf(db);
      });
      const refused = await cli("restore", [file!], withPassword(restored.env));
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(
        kind === "pglite"
          ? /\(DATA_DIR\) is not empty: restoring would replace what it holds\. Run again with --force/
          : /holds data \(in .+ more\): restoring would replace it\. Run again with --force/,
      );
      expect(await withDatabase(restored.target, contentsOf)).toEqual(changed);

      const forced = await cli("restore", ["--force", file!], withPassword(restored.env));
      expect(forced).toMatchObject({ code: 0 });
      expect(await withDatabase(restored.target, contentsOf)).toEqual(original);

      await database.reopen();
      expect(await contentsOf(database.db())).toEqual(original);
      for (const output of outputs) expect(output).not.toContain(decodeURIComponent(PASSWORD));
    },
  );

  it(
    "restores an older version's backup over a newer, empty database, and the next start migrates it",
    { timeout: 180_000 },
    async () => {
      const migrations = knownMigrations();
      const older = await newDatabase();
      await withDatabase(
        older.target,
        (db) => db.execute(sql`insert into customers (full_name) values ('Ada from the older version')`),
        { migrations: migrations.slice(0, -1) },
      );
      const folder = mkdtempSync(join(tmpdir(), "backup-files-"));
      made.push(async () => rmSync(folder, { recursive: true, force: true }));
      const file = join(folder, "older.backup");
      expect((await cli("backup", [file], withPassword(older.env))).code).toBe(0);

      // The newer version has already started once on the database it is given.
      const newer = await newDatabase();
      await withDatabase(newer.target, async () => {});
      // An embedded database's folder is not empty once the server has started on it.
      const restored = await cli("restore", kind === "pglite" ? [file, "--force"] : [file], withPassword(newer.env));
      expect(restored).toEqual({
        code: 0,
        output:
          `Restored ${file} into the ${nameOf(newer.env)}.\n` +
          `It predates 1 of this version's ${migrations.length} migrations: the server applies them when it starts.\n`,
      });

      await withDatabase(newer.target, async (db) => {
        const applied = (await db.execute(
          sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at`,
        )) as unknown as { rows: { hash: string; created_at: string }[] };
        expect(applied.rows.map((row) => [row.hash, Number(row.created_at)])).toEqual(
          migrations.map((migration) => [migration.hash, migration.folderMillis]),
        );
        const names = (await db.execute(sql`select full_name from customers`)) as unknown as {
          rows: { full_name: string }[];
        };
        expect(names.rows).toEqual([{ full_name: "Ada from the older version" }]);
      });
    },
  );

  it.runIf(kind === "postgres")(
    "a forced restore of a backup damaged part-way through its data fails and changes nothing",
    { timeout: 180_000 },
    async () => {
      const target = await newDatabase();
      await withDatabase(target.target, (db) =>
        seedDatabase(db, { orders: 1000, customers: 500, memberships: 250 }, () => {}),
      );
      const folder = mkdtempSync(join(tmpdir(), "backup-files-"));
      made.push(async () => rmSync(folder, { recursive: true, force: true }));
      const whole = join(folder, "whole.dump");
      expect((await cli("backup", [whole], withPassword(target.env))).code).toBe(0);
      // The table of contents at the start still reads (pg_restore --list, which the restore checks
      // first): the cut falls in the rows, so pg_restore fails after some tables' rows have gone in.
      const damaged = join(folder, "damaged.dump");
      const bytes = readFileSync(whole);
      writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const before = await withDatabase(target.target, contentsOf);

      const failed = await cli("restore", [damaged, "--force"], withPassword(target.env));
      expect(failed.code).toBe(1);
      expect(failed.output).toMatch(
        /^pg_restore failed: nothing was changed in the database backup_\w+ on 127\.0\.0\.1:\d+\. Fix the cause and restore again\.\npg_restore: error: could not read from input file: end of file\n$/,
      );
      expect(await withDatabase(target.target, contentsOf)).toEqual(before);
      for (const output of outputs) expect(output).not.toContain(decodeURIComponent(PASSWORD));
    },
  );

  it("says what is wrong with the arguments, the file or the environment, and changes nothing", async () => {
    expect(await cli("restore", [])).toEqual({
      code: 1,
      output: "Usage: npm run db:restore -- <file>   or   npm run db:restore -- <file> --force\n",
    });
    expect(await cli("backup", ["a", "b"])).toEqual({
      code: 1,
      output: "Usage: npm run db:backup   or   npm run db:backup -- <file>   (by default a new file in backups/)\n",
    });
    expect(await cli("restore", ["no-such.backup"])).toEqual({ code: 1, output: "There is no file no-such.backup.\n" });
    // A file that exists is never overwritten.
    expect(await cli("backup", ["package.json"])).toEqual({
      code: 1,
      output: "package.json already exists: a backup never replaces a file.\n",
    });
    // The other kind's backup is refused before anything changes, even with --force: on PostgreSQL
    // this file's database and what it holds, on PGlite a new folder (this file's is in use).
    const target = kind === "pglite" ? await newDatabase() : { env: database.env() };
    const before = kind === "postgres" ? await contentsOf(database.db()) : undefined;
    const wrong = await cli("restore", ["package.json", "--force"], withPassword(target.env));
    expect(wrong.code).toBe(1);
    if (kind === "pglite") {
      expect(wrong.output).toMatch(
        /^package\.json is not a backup of the embedded database \(npm run db:backup makes one when DATABASE_URL is unset\): /,
      );
      expect(readdirSync(target.env.DATA_DIR!)).toEqual([]);
      const dataDir = database.env().DATA_DIR!;
      expect(await cli("backup", [join(dataDir, "inside.tar.gz")])).toEqual({
        code: 1,
        output: `Keep backups out of ${dataDir} (DATA_DIR): a restore replaces all of it.\n`,
      });
    } else {
      expect(wrong.output).toMatch(
        /^package\.json is not a backup of a PostgreSQL database \(npm run db:backup makes one when DATABASE_URL is set\)\.\npg_restore: error: /,
      );
      expect(await contentsOf(database.db())).toEqual(before);
      expect(await cli("backup", [], { ...withPassword(database.env()), DATABASE_POOLER: "transaction" })).toEqual({
        code: 1,
        output:
          "DATABASE_URL is a transaction-mode pooler (DATABASE_POOLER=transaction), through which pg_dump and " +
          "pg_restore cannot keep a session: run this with DATABASE_URL set to PostgreSQL itself and DATABASE_POOLER unset.\n",
      });
    }
    for (const output of outputs) expect(output).not.toContain(decodeURIComponent(PASSWORD));
  });
});

describe.runIf(kind === "pglite")("a restore of the embedded database killed while it swaps the folders", () => {
  it("leaves a folder no one opens, and restoring again finishes the swap", { timeout: 180_000 }, async () => {
    const restored = await newDatabase();
    const dataDir = restored.env.DATA_DIR!;
    await withDatabase(restored.target, (db) => book(db, { email: "swapped@example.com", pay: "paid" }));
    const original = await withDatabase(restored.target, contentsOf);
    const file = join(mkdtempSync(join(tmpdir(), "backup-swap-")), "swap.tar.gz");
    made.push(async () => rmSync(join(file, ".."), { recursive: true, force: true }));
    expect((await cli("backup", [file], restored.env)).code).toBe(0);

    // As a restore killed half-way through moving the old folder's entries aside would leave it.
    const entries = readdirSync(dataDir);
    mkdirSync(join(dataDir, ".restoring"));
    mkdirSync(join(dataDir, ".replaced"));
    for (const name of entries.slice(0, Math.ceil(entries.length / 2))) {
      renameSync(join(dataDir, name), join(dataDir, ".replaced", name));
    }
    const halfRestored =
      `A restore into ${dataDir} was stopped while it replaced the database: the folder holds parts of ` +
      "the old one and the new one. Run the restore again (npm run db:restore -- <file> --force) to finish it.";
    await expect(openDatabase(restored.target)).rejects.toThrow(halfRestored);
    expect(await cli("backup", [`${file}.again`], restored.env)).toEqual({ code: 1, output: `${halfRestored}\n` });
    // The old database's entries moved aside still count as what DATA_DIR holds.
    expect((await cli("restore", [file], restored.env)).output).toMatch(/\(DATA_DIR\) is not empty/);
    // A restore that fails before its swap keeps the folder as unopenable as it found it.
    expect((await cli("restore", ["package.json", "--force"], restored.env)).code).toBe(1);
    await expect(openDatabase(restored.target)).rejects.toThrow(halfRestored);

    expect(await cli("restore", [file, "--force"], restored.env)).toMatchObject({ code: 0 });
    expect(readdirSync(dataDir)).not.toEqual(expect.arrayContaining([".restoring"]));
    expect(readdirSync(dataDir)).not.toEqual(expect.arrayContaining([".replaced"]));
    expect(await withDatabase(restored.target, contentsOf)).toEqual(original);
  });
});

/** How the commands name the database `env` points at. */
function nameOf(env: NodeJS.ProcessEnv) {
  if (env.DATA_DIR) return `embedded database in ${env.DATA_DIR}`;
  const url = new URL(env.DATABASE_URL!);
  return `database ${url.pathname.slice(1)} on ${url.host}`;
}
