import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in the data folder that names the process using it. */
export const LOCK_FILE = "server.lock";

/**
 * The folders a restore (scripts/pglite-backup.ts) keeps in the data folder while it runs: the backup
 * it unpacks, and the database it replaces, kept whole until the new one is wholly in place.
 */
export const RESTORE_FOLDERS = { staging: ".restoring", replaced: ".replaced" } as const;

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/**
 * A restore killed while it moved one database out and the other in leaves both folders behind and
 * the data folder holding parts of either: opening it then would start a database that is neither.
 */
export function refuseHalfRestored(dataDir: string) {
  const { staging, replaced } = RESTORE_FOLDERS;
  if (existsSync(join(dataDir, staging)) && existsSync(join(dataDir, replaced))) {
    throw new DataDirLockedError(
      `A restore into ${dataDir} was stopped while it replaced the database: the folder holds parts of ` +
        "the old one and the new one. Run the restore again (npm run db:restore -- <file> --force) to finish it.",
    );
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A lock file holding the owner's pid makes the second one refuse; a stale file left by a
 * crashed process is taken over. Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = join(dataDir, LOCK_FILE);
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
      throw new DataDirLockedError(
        `The embedded database in ${dataDir} is in use by process ${owner}. ` +
          "Stop the server first, or set DATABASE_URL to use PostgreSQL, which several processes can share.",
      );
    }
    writeFileSync(lockPath, String(process.pid));
  }
  return () => rmSync(lockPath, { force: true });
}
