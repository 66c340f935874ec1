import { env } from "~/env.server";

/**
 * The origin links to this site should use: `SITE_URL` when set (the address people use, also behind
 * a proxy), otherwise the origin the request arrived on. Set SITE_URL in production: a request's Host
 * header is whatever the client sent.
 */
export function siteOrigin(request: Request, siteUrl: string | undefined = env().SITE_URL): string {
  return new URL(siteUrl ?? request.url).origin;
}

/**
 * The origin for links written with no request to go by (the billing job, the CLIs, a refund the
 * follow-up job finished): `SITE_URL`, or else this process's own port on localhost.
 */
export function configuredOrigin(config: { SITE_URL?: string; PORT: number } = env()): string {
  return config.SITE_URL ? new URL(config.SITE_URL).origin : `http://localhost:${config.PORT}`;
}
