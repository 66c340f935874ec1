import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { installDatabase, openDatabase, type Database, type DatabaseHandle } from "~/db/client.server";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../test-database";

const run = promisify(execFile);

/**
 * `npm run <script> -- <args>` as an operator would type it, against the database `env` points at
 * (DATABASE_URL or DATA_DIR; neither is inherited from this process). Its exit code and output.
 */
export async function runNpmScript(script: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, "--", ...args], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

export const DATA_DIR_IN_USE = /is in use by process \d+\. Stop the server first, or set DATABASE_URL/;

/**
 * A database for the test file that an npm script can open too, as the server's would be: an
 * embedded one in a data folder, or a fresh PostgreSQL database. This process holds it open (and
 * installed as the process's database) like a running server.
 */
export function cliTestDatabase() {
  const kind = testDatabaseKind();
  let handle: DatabaseHandle;
  let env: NodeJS.ProcessEnv;
  let cleanUp = async () => {};
  const open = async () => {
    handle = await openDatabase(
      kind === "postgres" ? { kind, url: env.DATABASE_URL! } : { kind: "pglite", dataDir: env.DATA_DIR! },
    );
    installDatabase(handle);
  };

  beforeAll(async () => {
    if (kind === "postgres") {
      const database = await createEmptyPostgresDatabase();
      env = { DATABASE_URL: database.url };
      cleanUp = database.drop;
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "npm-script-"));
      env = { DATA_DIR: dataDir };
      cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
    }
    await open();
  }, 120_000);

  afterAll(async () => {
    installDatabase(undefined);
    await handle.close().catch(() => {});
    await cleanUp();
  });

  return {
    kind,
    db: (): Database => handle.db,
    /** What points a script at this database. */
    env: () => env,
    /** Lets a script have the embedded database, as stopping the server would; PostgreSQL is shared anyway. */
    release: async () => {
      if (kind === "pglite") await handle.close();
    },
    /** Takes the embedded database back after `release`. */
    reopen: async () => {
      if (kind === "pglite") await open();
    },
  };
}
