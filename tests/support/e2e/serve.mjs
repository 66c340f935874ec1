// Serves the production build for one Playwright run: on a throwaway embedded database, or on the
// PostgreSQL database named by E2E_DATABASE_URL (created here, dropped by the global teardown).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const dataDir = mkdtempSync(join(tmpdir(), "e2e-data-"));
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
// No scheduled retention runs here: tests create old unpaid orders on purpose (and show them).
process.env.RETENTION_INTERVAL_MINUTES = "0";
process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
// One server process, as on PGlite: cluster workers would each run this file again.
process.env.WEB_CONCURRENCY = "1";

const databaseUrl = process.env.E2E_DATABASE_URL;
if (databaseUrl) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(`create database "${new URL(databaseUrl).pathname.slice(1)}"`);
  await client.end();
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_SECRET = process.env.E2E_APP_SECRET;
}

await import("../../../server.js");
