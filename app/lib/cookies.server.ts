import { env } from "~/env.server";

/** The raw value of one cookie of the request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1 || part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  httpOnly?: boolean;
}

/** Cookies are marked Secure only in production behind an https SITE_URL (plain http would drop them). */
export function secureCookies(): boolean {
  return env().NODE_ENV === "production" && Boolean(env().SITE_URL?.startsWith("https:"));
}

/** A Set-Cookie value with the house defaults: whole site, SameSite=Lax, Secure in production. */
export function serializeCookie(name: string, value: string, { maxAge, httpOnly = true }: CookieOptions): string {
  const attributes = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (httpOnly) attributes.push("HttpOnly");
  if (secureCookies()) attributes.push("Secure");
  return attributes.join("; ");
}
