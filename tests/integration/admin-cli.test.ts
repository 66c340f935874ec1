import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installDatabase, openDatabase, type DatabaseHandle } from "~/db/client.server";
import { user, userRoles } from "~/db/schema";
import { createSignedInAccount } from "./accounts";
import { createEmptyPostgresDatabase, testDatabaseKind } from "./test-database";

const run = promisify(execFile);
const kind = testDatabaseKind();

/** `npm run admin:<command> -- <email>` against the database `env` points at: exit code and output. */
async function adminCli(command: "grant" | "revoke", email: string, env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", `admin:${command}`, "--", email], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

let handle: DatabaseHandle;
let cliEnv: NodeJS.ProcessEnv;
let cleanUp = async () => {};

beforeAll(async () => {
  if (kind === "postgres") {
    const database = await createEmptyPostgresDatabase();
    handle = await openDatabase({ kind: "postgres", url: database.url });
    cliEnv = { DATABASE_URL: database.url };
    cleanUp = database.drop;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-cli-"));
    handle = await openDatabase({ kind: "pglite", dataDir });
    cliEnv = { DATA_DIR: dataDir };
    cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  installDatabase(handle);
}, 120_000);

afterAll(async () => {
  installDatabase(undefined);
  await handle.close().catch(() => {});
  await cleanUp();
});

async function isAdminInDatabase(db: DatabaseHandle["db"], email: string) {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .where(eq(user.email, email));
  return rows.some((row) => row.role === "admin");
}

describe(`npm run admin:grant / admin:revoke on ${kind}`, () => {
  it(
    "grants and revokes idempotently, and says so; an unknown e-mail fails with a clear message",
    { timeout: 120_000 },
    async () => {
      const { email } = await createSignedInAccount(handle.db);

      if (kind === "pglite") {
        // The running "server" (this process) holds the embedded database: the CLI must refuse.
        const refused = await adminCli("grant", email, cliEnv);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(/is in use by process \d+\. Stop the server first, or set DATABASE_URL/);
        await handle.close();
      }

      expect(await adminCli("grant", email.toUpperCase(), cliEnv)).toEqual({
        code: 0,
        output: `${email.toUpperCase()} is now an admin.\n`,
      });
      expect((await adminCli("grant", email, cliEnv)).output).toBe(`${email} is already an admin: nothing to do.\n`);
      const unknown = await adminCli("grant", "nobody@example.com", cliEnv);
      expect(unknown).toEqual({
        code: 1,
        output: "No user has the e-mail nobody@example.com. They must sign up on the site (/auth) first.\n",
      });

      if (kind === "pglite") {
        handle = await openDatabase({ kind: "pglite", dataDir: cliEnv.DATA_DIR! });
      }
      expect(await isAdminInDatabase(handle.db, email)).toBe(true);
      if (kind === "pglite") await handle.close();

      expect(await adminCli("revoke", email, cliEnv)).toEqual({ code: 0, output: `${email} is no longer an admin.\n` });
      expect((await adminCli("revoke", email, cliEnv)).output).toBe(`${email} is not an admin: nothing to do.\n`);

      if (kind === "pglite") handle = await openDatabase({ kind: "pglite", dataDir: cliEnv.DATA_DIR! });
      expect(await isAdminInDatabase(handle.db, email)).toBe(false);
    },
  );
});
