import { afterAll, beforeAll } from "vitest";
import { installDatabase, type Database } from "~/db/client.server";
import { openTestDatabase, type TestDatabase } from "../test-database";

/**
 * A fresh database for the test file, installed as the process's database (what routes and
 * services use) from the file's first test to its last. Returns its Drizzle handle.
 */
export function installedTestDatabase(): () => Database {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await openTestDatabase();
    installDatabase(handle);
  });
  afterAll(async () => {
    installDatabase(undefined);
    await handle.destroy();
  });
  return () => handle.db;
}
