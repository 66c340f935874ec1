// Grants or revokes the admin role: `npm run admin:grant -- <email> [--confirm-address]`,
// `npm run admin:revoke -- <email>`.
// Uses the database the server uses (DATABASE_URL, or the embedded one in DATA_DIR). The embedded
// database belongs to one process: while the server runs, this refuses and says what to do.
import { grantAdmin, revokeAdmin, type RoleChange } from "~/features/auth/roles.server";
import { runWithDatabase } from "./database-cli";

const MESSAGES: Record<"grant" | "revoke", Record<Exclude<RoleChange, "no-such-user">, (email: string) => string>> = {
  grant: {
    changed: (email) => `${email} is now an admin.`,
    unchanged: (email) => `${email} is already an admin: nothing to do.`,
  },
  revoke: {
    changed: (email) => `${email} is no longer an admin.`,
    unchanged: (email) => `${email} is not an admin: nothing to do.`,
  },
};

const [command, email, ...flags] = process.argv.slice(2);
const confirmAddress = command === "grant" && flags.length === 1 && flags[0] === "--confirm-address";
if ((command !== "grant" && command !== "revoke") || !email || (flags.length > 0 && !confirmAddress)) {
  console.error("Usage: npm run admin:grant -- <email> [--confirm-address]   or   npm run admin:revoke -- <email>");
  process.exitCode = 1;
} else {
  await runWithDatabase(async (db) => {
    const change = command === "grant" ? await grantAdmin(db, email, { confirmAddress }) : await revokeAdmin(db, email);
    if (change === "no-such-user") {
      console.error(`No user has the e-mail ${email}. They must sign up on the site (/auth) first.`);
      return 1;
    }
    if (change === "unverified") {
      console.error(
        `${email} has not confirmed its e-mail address: only an account whose owner followed the link in the confirmation e-mail (sent at sign-up) can be made an admin. If this address is yours and the e-mail cannot reach you (no SMTP_URL), add --confirm-address.`,
      );
      return 1;
    }
    console.log(MESSAGES[command][change](email));
    return 0;
  }, "The role could not be changed:");
}
