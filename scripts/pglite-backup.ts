import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { acquireDataDirLock, LOCK_FILE, refuseHalfRestored, RESTORE_FOLDERS } from "~/db/data-dir-lock.server";
import { CommandError } from "./database-cli";

const run = promisify(execFile);

/**
 * A restore unpacks the backup in STAGING first, so that a file that is not a backup of this site
 * leaves DATA_DIR as it was, then moves what DATA_DIR holds into REPLACED, and the backup in. Both
 * being inside DATA_DIR, they are on its file system, and each move is a rename.
 */
const { staging: STAGING, replaced: REPLACED } = RESTORE_FOLDERS;

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
  refuseHalfRestored(dataDir);
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
        `--exclude=./${REPLACED}`,
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
  const replaced = join(dataDir, REPLACED);
  let swapping = false;
  try {
    // A database left in REPLACED by a killed restore counts: restoring again without --force keeps it.
    const present = readdirSync(dataDir).filter((name) => name !== LOCK_FILE && name !== STAGING);
    if (present.length > 0 && !force) {
      throw new CommandError(
        `${dataDir} (DATA_DIR) is not empty: restoring would replace what it holds. Run again with --force ` +
          "to replace it (back it up first), or set DATA_DIR to an empty folder.",
      );
    }
    // Left behind by a restore that was killed. Emptied rather than removed: while REPLACED is there
    // too, STAGING is what keeps the half-swapped folder from being opened.
    mkdirSync(staging, { recursive: true });
    for (const name of readdirSync(staging)) rmSync(join(staging, name), { recursive: true, force: true });
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
    // The old database is deleted only once the new one is wholly in place: until then, a restore
    // killed part-way leaves STAGING and REPLACED both there, which no one opens (refuseHalfRestored).
    swapping = true;
    mkdirSync(replaced, { recursive: true });
    for (const name of present) {
      if (name === REPLACED) continue;
      // What a killed restore had already moved out, or in: REPLACED holds the old database's own.
      if (existsSync(join(replaced, name))) rmSync(join(dataDir, name), { recursive: true, force: true });
      else renameSync(join(dataDir, name), join(replaced, name));
    }
    // A tarball made otherwise (by PGlite's dumpDataDir, say) may hold a lock file: this process's stays.
    for (const name of readdirSync(staging)) {
      if (name !== LOCK_FILE) renameSync(join(staging, name), join(dataDir, name));
    }
    rmSync(replaced, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
    return applied;
  } finally {
    // A swap that failed part-way leaves both folders, as a killed one does; and so does a run that
    // failed before its swap, after a killed one's.
    if (!swapping && !existsSync(replaced)) rmSync(staging, { recursive: true, force: true });
    release();
  }
}
