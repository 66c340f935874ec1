import { redirect } from "react-router";
import { readCookie, serializeCookie } from "./cookies.server";
import { toastSchema, type Toast } from "./toast";

const COOKIE_NAME = "toast";

/** A one-time cookie carrying a toast across a redirect; the root loader shows and clears it. */
export function toastCookie(toast: Toast): string {
  return serializeCookie(COOKIE_NAME, Buffer.from(JSON.stringify(toast)).toString("base64url"), { maxAge: 60 });
}

/** The toast waiting in the request's cookie (if any) and the Set-Cookie header that clears it. */
export function takeToast(request: Request): { toast: Toast | null; clearCookie: string | null } {
  const raw = readCookie(request, COOKIE_NAME);
  if (raw === undefined) return { toast: null, clearCookie: null };
  const clearCookie = serializeCookie(COOKIE_NAME, "", { maxAge: 0 });
  try {
    const parsed = toastSchema.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
    return { toast: parsed.success ? parsed.data : null, clearCookie };
  } catch {
    return { toast: null, clearCookie };
  }
}

/** Redirects and shows `toast` on the next page, keeping any other Set-Cookie headers of `init`. */
export function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", toastCookie(toast));
  return redirect(url, { ...init, headers });
}
