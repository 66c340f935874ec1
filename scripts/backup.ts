// Backs up the database the server uses, or restores a backup into it (ADR 023):
// `npm run db:backup [-- <file>]`, `npm run db:restore -- <file> [--force]`.
// PostgreSQL (DATABASE_URL) goes through pg_dump and pg_restore, and may be backed up while the site
// runs; the embedded database (DATA_DIR) is a tarball of its folder, taken while the server is stopped.
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { knownMigrations } from "~/db/migrate.server";
import { env, type Env } from "~/env.server";
import { CommandError, runCommand } from "./database-cli";
import { backupPglite, describeDataDir, restorePglite } from "./pglite-backup";
import { backupPostgres, describePostgres, restorePostgres } from "./postgres-backup";

const USAGE = {
  backup: "Usage: npm run db:backup   or   npm run db:backup -- <file>   (by default a new file in backups/)",
  restore: "Usage: npm run db:restore -- <file>   or   npm run db:restore -- <file> --force",
};

type DatabaseOfEnv = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/** The database the environment names. */
function databaseOf(config: Env): DatabaseOfEnv {
  if (!config.DATABASE_URL) return { kind: "pglite", dataDir: config.DATA_DIR };
  if (config.DATABASE_POOLER === "transaction") {
    throw new CommandError(
      "DATABASE_URL is a transaction-mode pooler (DATABASE_POOLER=transaction), through which pg_dump and " +
        "pg_restore cannot keep a session: run this with DATABASE_URL set to PostgreSQL itself and DATABASE_POOLER unset.",
    );
  }
  return { kind: "postgres", url: config.DATABASE_URL };
}

const nameOf = (database: DatabaseOfEnv) =>
  `the ${database.kind === "pglite" ? describeDataDir(database.dataDir) : describePostgres(database.url)}`;

/** backups/pglite-2026-11-25T10-30-00Z.tar.gz, or …/postgres-….dump: sorted by name, sorted by time. */
function defaultBackupFile(kind: DatabaseOfEnv["kind"]) {
  const time = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return join("backups", `${kind}-${time}.${kind === "pglite" ? "tar.gz" : "dump"}`);
}

function isInside(path: string, folder: string) {
  const fromFolder = relative(folder, path);
  return !fromFolder.startsWith("..") && !isAbsolute(fromFolder);
}

const megabytes = (file: string) => `${(statSync(file).size / 1_000_000).toFixed(1)} MB`;

async function backup(file: string | undefined) {
  const database = databaseOf(env());
  const target = file ?? defaultBackupFile(database.kind);
  if (existsSync(target)) throw new CommandError(`${target} already exists: a backup never replaces a file.`);
  if (database.kind === "pglite" && isInside(target, database.dataDir)) {
    throw new CommandError(`Keep backups out of ${database.dataDir} (DATA_DIR): a restore replaces all of it.`);
  }
  // The backup holds personal data (and on the embedded database the site's secret): for its owner's eyes only.
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  // Written under another name until it is complete, so that a failed backup leaves no file that looks like one.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  writeFileSync(partial, "", { mode: 0o600 });
  try {
    const made =
      database.kind === "pglite"
        ? await backupPglite(database.dataDir, partial)
        : await backupPostgres(database.url, partial);
    renameSync(partial, target);
    console.log(`Backed up ${nameOf(database)} (${made}) to ${target} (${megabytes(target)}).`);
  } finally {
    rmSync(partial, { force: true });
  }
  return 0;
}

async function restore(file: string, force: boolean) {
  const database = databaseOf(env());
  if (!existsSync(file)) throw new CommandError(`There is no file ${file}.`);
  const applied =
    database.kind === "pglite"
      ? await restorePglite(database.dataDir, file, force)
      : await restorePostgres(database.url, file, force);
  console.log(`Restored ${file} into ${nameOf(database)}.`);
  const known = knownMigrations().length;
  if (applied < known) {
    console.log(
      `It predates ${known - applied} of this version's ${known} migrations: the server applies them when it starts.`,
    );
  } else if (applied > known) {
    console.error(
      `It comes from a newer version of the site (${applied} migrations; this one has ${known}): run that version on it.`,
    );
  }
  return 0;
}

const [command, ...args] = process.argv.slice(2);
const force = args.includes("--force");
const files = args.filter((arg) => arg !== "--force");
const file = files.length === 1 && !files[0]!.startsWith("-") ? files[0] : undefined;
if (command === "backup" && !force && (files.length === 0 || file)) {
  await runCommand(() => backup(file), "The backup failed:");
} else if (command === "restore" && file) {
  await runCommand(() => restore(file, force), "The restore failed:");
} else {
  console.error(command === "restore" ? USAGE.restore : USAGE.backup);
  process.exitCode = 1;
}
