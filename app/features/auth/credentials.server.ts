import { logger } from "~/logger.server";
import { callAuthEndpoint } from "./auth.server";
import type { SignInInput, SignUpInput } from "./schemas";

export type AuthOutcome =
  /** `headers` holds better-auth's Set-Cookie headers, to send with the page or redirect that follows. */
  { ok: true; headers: Headers } | { ok: false; reason: "invalid-credentials" | "rate-limited" | "failed" };

export async function outcomeOf(response: Response, action: string): Promise<AuthOutcome> {
  if (response.ok) {
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return { ok: true, headers };
  }
  if (response.status === 429) return { ok: false, reason: "rate-limited" };
  if (response.status === 401) return { ok: false, reason: "invalid-credentials" };
  // better-auth's error body is a code and a message; it never holds the submitted password.
  const body: unknown = await response.json().catch(() => null);
  logger.warn({ action, status: response.status, body }, "auth: request refused");
  return { ok: false, reason: "failed" };
}

/** Signs in; on success the outcome carries the session cookie to set. */
export async function signIn(request: Request, { email, password }: SignInInput): Promise<AuthOutcome> {
  return outcomeOf(await callAuthEndpoint(request, "/sign-in/email", { email, password }), "sign-in");
}

/**
 * Creates the account (full_name stored). A registered e-mail gets the same answer as a new one
 * and nothing is created, so sign-up does not reveal who has an account.
 */
export async function signUp(request: Request, { fullName, email, password }: SignUpInput): Promise<AuthOutcome> {
  const response = await callAuthEndpoint(request, "/sign-up/email", { name: fullName, fullName, email, password });
  return outcomeOf(response, "sign-up");
}

/** Ends the request's session; the outcome carries the cookies that clear it. */
export async function signOut(request: Request): Promise<AuthOutcome> {
  return outcomeOf(await callAuthEndpoint(request, "/sign-out"), "sign-out");
}
