import { robotsTxt } from "~/platform/seo/sitemap";
import { siteOrigin } from "~/lib/site-origin.server";

export function loader() {
  return new Response(robotsTxt(siteOrigin()), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
