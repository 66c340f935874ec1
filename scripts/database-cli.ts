import type { Database } from "~/db/client.server";
import { databaseTargetFromEnv, installDatabase, openDatabase } from "~/db/client.server";
import { DataDirLockedError } from "~/db/data-dir-lock.server";
import { env, EnvError } from "~/env.server";

/** A command's failure that its message explains to the operator, printed without a stack trace. */
export class CommandError extends Error {
  override name = "CommandError";
}

/**
 * Runs an operator's command and sets the exit code it returns. A failure the operator can act on
 * (a bad environment, the embedded database in use, a CommandError) prints its message alone.
 */
export async function runCommand(work: () => Promise<number>, failure: string) {
  let settled = false;
  // A query whose connection was cut at an unlucky moment can leave its promise pending with nothing
  // else to wait for: Node then exits with 13 and says nothing. Say what happened, and exit with 1.
  process.once("exit", () => {
    if (settled) return;
    console.error(`${failure} a database query never answered (its connection was lost).`);
    process.exitCode = 1;
  });
  try {
    process.exitCode = await work();
    settled = true;
  } catch (error) {
    settled = true;
    if (error instanceof DataDirLockedError || error instanceof EnvError || error instanceof CommandError) {
      console.error(error.message);
    } else {
      console.error(failure, error);
    }
    process.exitCode = 1;
  }
}

/**
 * Runs an operator's command against the database the server uses (DATABASE_URL, or the embedded
 * one in DATA_DIR), migrated as the server would. The embedded database belongs to one process:
 * while the server runs, this refuses with a message that says what to do (as does a bad environment).
 */
export async function runWithDatabase(work: (db: Database) => Promise<number>, failure: string) {
  await runCommand(async () => {
    const handle = await openDatabase(databaseTargetFromEnv(env()));
    // Installed as the server installs it: the sandbox keeps its answers there (`sandboxGateway`).
    installDatabase(handle);
    try {
      return await work(handle.db);
    } finally {
      installDatabase(undefined);
      await handle.close();
    }
  }, failure);
}
