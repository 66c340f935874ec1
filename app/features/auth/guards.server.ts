import { getSessionCookie } from "better-auth/cookies";
import { redirect } from "react-router";
import { logger } from "~/logger.server";
import type { AccountSummary } from "./account";
import { getAuth } from "./auth.server";
import { isAdmin } from "./roles.server";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  fullName: string | null;
}

/** The signed-in user of the request, or null. */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  // Without its cookie there is no session to look up, and asking better-auth costs a visitor's
  // request (a page view, a booking) about as much CPU as the rest of its work.
  if (!getSessionCookie(request)) return null;
  // No refresh: reading a page must not write to the database or hand out new cookies.
  const result = await getAuth().api.getSession({ headers: request.headers, query: { disableRefresh: true } });
  if (!result) return null;
  const { id, name, email, fullName } = result.user;
  return { id, name, email, fullName: fullName ?? null };
}

/** The signed-in user; anyone else is sent to /auth. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) throw redirect("/auth");
  return user;
}

/** A signed-in admin; visitors are sent to /auth, other users to the home page. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!(await isAdmin(user.id))) throw redirect("/");
  return user;
}

/** The API form of requireAdmin: 401 for visitors, 403 for users who are not admins, as JSON. */
export async function requireAdminApi(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) throw Response.json({ error: "Authentication required" }, { status: 401 });
  if (!(await isAdmin(user.id))) throw Response.json({ error: "Admin role required" }, { status: 403 });
  return user;
}

/** For the header: who is signed in and whether to show the Admin button. Pages still render when this fails. */
export async function accountSummary(request: Request): Promise<AccountSummary> {
  try {
    const user = await getOptionalUser(request);
    if (!user) return { user: null, isAdmin: false };
    return { user: { name: user.fullName ?? user.name, email: user.email }, isAdmin: await isAdmin(user.id) };
  } catch (error) {
    logger.error({ err: error }, "could not read the session for the page header");
    return { user: null, isAdmin: false };
  }
}
