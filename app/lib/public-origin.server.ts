import { env } from "~/env.server";

/**
 * The origin links to this site should use: SITE_URL when set, else the request's own. Set SITE_URL
 * in production: a request's Host header is whatever the client sent.
 */
export function publicOrigin(request: Request): string {
  return new URL(env().SITE_URL ?? request.url).origin;
}
