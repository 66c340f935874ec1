// Grants or revokes the admin role: `npm run admin:grant -- <email>`, `npm run admin:revoke -- <email>`.
// Uses the database the server uses (DATABASE_URL, or the embedded one in DATA_DIR). The embedded
// database belongs to one process: while the server runs, this refuses and says what to do.
import { databaseTargetFromEnv, openDatabase } from "~/db/client.server";
import { DataDirLockedError } from "~/db/data-dir-lock.server";
import { env, EnvError } from "~/env.server";
import { grantAdmin, revokeAdmin, type RoleChange } from "~/features/auth/roles.server";

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

async function main(): Promise<number> {
  const [command, email] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !email) {
    console.error("Usage: npm run admin:grant -- <email>   or   npm run admin:revoke -- <email>");
    return 1;
  }
  const handle = await openDatabase(databaseTargetFromEnv(env()));
  try {
    const change = command === "grant" ? await grantAdmin(handle.db, email) : await revokeAdmin(handle.db, email);
    if (change === "no-such-user") {
      console.error(`No user has the e-mail ${email}. They must sign up on the site (/auth) first.`);
      return 1;
    }
    console.log(MESSAGES[command][change](email));
    return 0;
  } finally {
    await handle.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof DataDirLockedError || error instanceof EnvError) {
    console.error(error.message);
  } else {
    console.error("The role could not be changed:", error);
  }
  process.exitCode = 1;
}
