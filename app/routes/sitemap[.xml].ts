import type { Route } from "./+types/sitemap[.xml]";
import { sitemapXml } from "~/platform/seo/sitemap";
import { siteOrigin } from "~/lib/site-origin.server";

export function loader({ request }: Route.LoaderArgs) {
  return new Response(sitemapXml(siteOrigin(request)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
