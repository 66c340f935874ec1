import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";

/**
 * The e2e server's database, when it runs on PostgreSQL (set by playwright.config.ts whenever
 * TEST_DATABASE_URL is). The embedded database cannot be opened beside the running server.
 */
export const e2eDatabaseUrl = process.env.E2E_DATABASE_URL;

export const NEEDS_POSTGRES =
  "needs the e2e server on PostgreSQL (set TEST_DATABASE_URL): the embedded database belongs to the server process";

let pool: pg.Pool | undefined;

/** The environment of an operator's command beside the e2e server: its database, secret and address. */
const e2eCommandEnv = () => ({
  ...process.env,
  DATABASE_URL: e2eDatabaseUrl,
  APP_SECRET: process.env.E2E_APP_SECRET,
  SITE_URL: process.env.E2E_SITE_URL,
});

export function e2eDatabase(): pg.Pool {
  if (!e2eDatabaseUrl) throw new Error(NEEDS_POSTGRES);
  pool ??= new pg.Pool({ connectionString: e2eDatabaseUrl, max: 2 });
  return pool;
}

const run = promisify(execFile);

/** `npm run admin:<command> -- <email>` against the e2e server's database, as an operator would. */
export async function adminCli(command: "grant" | "revoke", email: string) {
  const { stdout } = await run("npm", ["run", "--silent", `admin:${command}`, "--", email], {
    env: e2eCommandEnv(),
  });
  return stdout;
}

/**
 * `npm run billing` against the e2e server's database, as an operator would. It stops with an error
 * when the server's own scheduled run holds the billing lock: the caller tries again.
 */
export async function billingCli() {
  const { stdout } = await run("npm", ["run", "--silent", "billing"], {
    env: e2eCommandEnv(),
  });
  return stdout;
}
