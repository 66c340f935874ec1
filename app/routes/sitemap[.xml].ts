import { sitemapXml } from "~/platform/seo/sitemap";
import { siteOrigin } from "~/lib/site-origin.server";

export function loader() {
  return new Response(sitemapXml(siteOrigin()), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
