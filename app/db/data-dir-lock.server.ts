import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in the data folder that names the process using it. */
export const LOCK_FILE = "server.lock";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
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
