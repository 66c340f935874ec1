import pg from "pg";

/** Drops the e2e server's PostgreSQL database, if it had one (see playwright.config.ts). */
export default async function globalTeardown() {
  const url = process.env.E2E_DATABASE_URL;
  if (!url || !process.env.TEST_DATABASE_URL) return;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
