import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { acquireDataDirLock, LOCK_FILE } from "~/db/data-dir-lock.server";
import { CommandError } from "./database-cli";

const run = promisify(execFile);

/**
 * A restore unpacks the backup here first, so that a file that is not a backup of this site leaves
 * DATA_DIR as it was; being inside DATA_DIR, it is on the same file system, and moving it in is renaming.
 */
const STAGING = ".restoring";

/** Names the folder in messages. */
export const describeDataDir = (dataDir: string) => `embedded database in ${dataDir}`;

/**
 * Opens the database in `folder` and closes it again, which leaves it shut down cleanly: a copy of
 * it then starts as it stopped, without the crash recovery that empties unlogged tables (the
 * rate-limit counters). PGlite opens here without the worker thread (ADR 021) or the pg_trgm
 * extension: `inspect` only reads, and calls nothing of the extension.
 */
async function inspectThenShutDown<T>(folder: string, inspect: (db: PGlite) => Promise<T>): Promise<T> {
  const db = await PGlite.create(folder);
  try {
    return await inspect(db);
  } finally {
    await db.close();
  }
}

async function tar(args: string[], failure: string) {
  try {
    await run("tar", args);
  } catch (error) {
    throw new CommandError(`${failure}: ${((error as { stderr?: string }).stderr ?? String(error)).trim()}`);
  }
}

/**
 * Writes a gzipped tarball of the whole data folder (its database, and the app-secret generated
 * there) to `file`, in the form PGlite's `loadDataDir` takes too. The folder must not be in use:
 * the server's database changes while it runs. Returns the version of PostgreSQL the folder is for.
 */
export async function backupPglite(dataDir: string, file: string) {
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    throw new CommandError(`There is no embedded database in ${dataDir} (DATA_DIR) to back up.`);
  }
  const release = acquireDataDirLock(dataDir);
  try {
    const version = await inspectThenShutDown(dataDir, async (db) => {
      const { rows } = await db.query<{ version: string }>("select current_setting('server_version') as version");
      return rows[0]!.version;
    });
    await tar(
      [
        "--create",
        "--gzip",
        `--file=${file}`,
        `--exclude=./${LOCK_FILE}`,
        `--exclude=./${STAGING}`,
        "--directory",
        dataDir,
        ".",
      ],
      `Could not write ${file}`,
    );
    return `PostgreSQL ${version} in PGlite`;
  } finally {
    release();
  }
}

/**
 * Makes DATA_DIR the folder `file` holds, refusing when DATA_DIR holds anything unless `force`.
 * Returns how many migrations the restored database has had.
 */
export async function restorePglite(dataDir: string, file: string, force: boolean): Promise<number> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDataDirLock(dataDir);
  const staging = join(dataDir, STAGING);
  try {
    const present = readdirSync(dataDir).filter((name) => name !== LOCK_FILE && name !== STAGING);
    if (present.length > 0 && !force) {
      throw new CommandError(
        `${dataDir} (DATA_DIR) is not empty: restoring would replace what it holds. Run again with --force ` +
          "to replace it (back it up first), or set DATA_DIR to an empty folder.",
      );
    }
    // Left behind by a restore that was killed.
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    const notABackup = `${file} is not a backup of the embedded database (npm run db:backup makes one when DATABASE_URL is unset)`;
    await tar(["--extract", "--gzip", `--file=${file}`, "--directory", staging], notABackup);
    const applied = await inspectThenShutDown(staging, async (db) => {
      try {
        const { rows } = await db.query<{ count: number }>(
          "select count(*)::int as count from drizzle.__drizzle_migrations",
        );
        return rows[0]!.count;
      } catch {
        throw new CommandError(`${file} holds no database of this site: it has no drizzle.__drizzle_migrations table.`);
      }
    }).catch((error: unknown) => {
      throw error instanceof CommandError ? error : new CommandError(`${notABackup}: ${String(error)}`);
    });
    for (const name of present) rmSync(join(dataDir, name), { recursive: true, force: true });
    // A tarball made otherwise (by PGlite's dumpDataDir, say) may hold a lock file: this process's stays.
    for (const name of readdirSync(staging)) {
      if (name !== LOCK_FILE) renameSync(join(staging, name), join(dataDir, name));
    }
    return applied;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}
