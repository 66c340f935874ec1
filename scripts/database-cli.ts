import type { Database } from "~/db/client.server";
import { databaseTargetFromEnv, openDatabase } from "~/db/client.server";
import { DataDirLockedError } from "~/db/data-dir-lock.server";
import { env, EnvError } from "~/env.server";

/**
 * Runs an operator's command against the database the server uses (DATABASE_URL, or the embedded
 * one in DATA_DIR) and sets the exit code it returns. The embedded database belongs to one process:
 * while the server runs, this refuses with a message that says what to do (as does a bad environment).
 */
export async function runWithDatabase(work: (db: Database) => Promise<number>, failure: string) {
  try {
    const handle = await openDatabase(databaseTargetFromEnv(env()));
    try {
      process.exitCode = await work(handle.db);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof EnvError) {
      console.error(error.message);
    } else {
      console.error(failure, error);
    }
    process.exitCode = 1;
  }
}
