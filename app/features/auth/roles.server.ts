import { and, eq, sql } from "drizzle-orm";
import { database, type Database } from "~/db/client.server";
import { user, userRoles } from "~/db/schema";
import { logger } from "~/logger.server";

export const ADMIN_ROLE = "admin";

/** Whether the user holds the admin role. A failed lookup counts as "no" and is logged. */
export async function isAdmin(userId: string, db: Database = database().db): Promise<boolean> {
  try {
    const rows = await db
      .select({ id: userRoles.id })
      .from(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, ADMIN_ROLE)))
      .limit(1);
    return rows.length > 0;
  } catch (error) {
    logger.error({ err: error, userId }, "Error checking admin role");
    return false;
  }
}

export type RoleChange = "changed" | "unchanged" | "no-such-user";

async function userByEmail(db: Database, email: string) {
  const [found] = await db
    .select({ id: user.id, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.email, sql`lower(${email.trim()})`))
    .limit(1);
  return found;
}

async function userIdByEmail(db: Database, email: string): Promise<string | undefined> {
  return (await userByEmail(db, email))?.id;
}

/**
 * Makes the user with this e-mail an admin; "unchanged" when they already are. An account whose
 * address is not confirmed is refused ("unverified"): anyone may sign up with an address before its
 * owner does, and the role must go to whoever reads that mailbox. `confirmAddress` is the operator
 * saying the mailbox is theirs (a site without SMTP_URL sends no confirmation e-mail): the address
 * is then confirmed first.
 */
export async function grantAdmin(
  db: Database,
  email: string,
  { confirmAddress = false } = {},
): Promise<RoleChange | "unverified"> {
  const found = await userByEmail(db, email);
  if (!found) return "no-such-user";
  if (!found.emailVerified && !confirmAddress) return "unverified";
  if (!found.emailVerified) await db.update(user).set({ emailVerified: true }).where(eq(user.id, found.id));
  const userId = found.id;
  const inserted = await db
    .insert(userRoles)
    .values({ userId, role: ADMIN_ROLE })
    .onConflictDoNothing()
    .returning({ id: userRoles.id });
  return inserted.length > 0 ? "changed" : "unchanged";
}

/** Takes the admin role away from the user with this e-mail; "unchanged" when they did not have it. */
export async function revokeAdmin(db: Database, email: string): Promise<RoleChange> {
  const userId = await userIdByEmail(db, email);
  if (!userId) return "no-such-user";
  const deleted = await db
    .delete(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, ADMIN_ROLE)))
    .returning({ id: userRoles.id });
  return deleted.length > 0 ? "changed" : "unchanged";
}
