import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { user, userRoles } from "~/db/schema";
import { confirmAddress, createSignedInAccount } from "../../support/integration/requests";
import { cliTestDatabase, DATA_DIR_IN_USE, runNpmScript } from "../../support/integration/npm-script";

const database = cliTestDatabase();
const kind = database.kind;

/** `npm run admin:<command> -- <email>` against the test database: exit code and output. */
const adminCli = (command: "grant" | "revoke", email: string, ...flags: string[]) =>
  runNpmScript(`admin:${command}`, [email, ...flags], database.env());

async function isAdminInDatabase(db: Database, email: string) {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .where(eq(user.email, email));
  return rows.some((row) => row.role === "admin");
}

describe(`npm run admin:grant / admin:revoke on ${kind}`, () => {
  it(
    "grants and revokes idempotently, and says so; an unknown or unconfirmed e-mail fails with a clear message",
    { timeout: 120_000 },
    async () => {
      const { email } = await createSignedInAccount(database.db());
      const unconfirmed = await createSignedInAccount(database.db());
      await confirmAddress(database.db(), email);

      if (kind === "pglite") {
        // The running "server" (this process) holds the embedded database: the CLI must refuse.
        const refused = await adminCli("grant", email);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(DATA_DIR_IN_USE);
      }
      await database.release();

      expect(await adminCli("grant", email.toUpperCase())).toEqual({
        code: 0,
        output: `${email.toUpperCase()} is now an admin.\n`,
      });
      expect((await adminCli("grant", email)).output).toBe(`${email} is already an admin: nothing to do.\n`);
      // Anyone may sign up with an address before its owner: the role waits for the address to be confirmed.
      expect(await adminCli("grant", unconfirmed.email)).toEqual({
        code: 1,
        output: `${unconfirmed.email} has not confirmed its e-mail address: only an account whose owner followed the link in the confirmation e-mail (sent at sign-up) can be made an admin. If this address is yours and the e-mail cannot reach you (no SMTP_URL), add --confirm-address.\n`,
      });
      // The operator vouches for the mailbox: the address is confirmed, then the role granted.
      expect(await adminCli("grant", unconfirmed.email, "--confirm-address")).toEqual({
        code: 0,
        output: `${unconfirmed.email} is now an admin.\n`,
      });
      expect((await adminCli("grant", email, "--confirm-adress")).code).toBe(1);
      const unknown = await adminCli("grant", "nobody@example.com");
      expect(unknown).toEqual({
        code: 1,
        output: "No user has the e-mail nobody@example.com. They must sign up on the site (/auth) first.\n",
      });

      await database.reopen();
      expect(await isAdminInDatabase(database.db(), email)).toBe(true);
      await database.release();

      expect(await adminCli("revoke", email)).toEqual({ code: 0, output: `${email} is no longer an admin.\n` });
      expect((await adminCli("revoke", email)).output).toBe(`${email} is not an admin: nothing to do.\n`);

      await database.reopen();
      expect(await isAdminInDatabase(database.db(), email)).toBe(false);
    },
  );
});
