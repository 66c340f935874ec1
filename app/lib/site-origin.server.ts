import { env } from "~/env.server";

/**
 * The public origin of the site: `SITE_URL` when set (the address people use, also behind a
 * proxy), otherwise the origin the request arrived on.
 */
export function siteOrigin(request: Request, siteUrl: string | undefined = env().SITE_URL): string {
  return new URL(siteUrl ?? request.url).origin;
}
