import { env } from "~/env.server";

/**
 * The origin links to this site should use: `SITE_URL` when set (the address people use, also behind
 * a proxy), otherwise the origin the request arrived on. Set SITE_URL in production: a request's Host
 * header is whatever the client sent.
 */
export function siteOrigin(request: Request, siteUrl: string | undefined = env().SITE_URL): string {
  return new URL(siteUrl ?? request.url).origin;
}
