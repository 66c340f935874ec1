import type { Route } from "./+types/robots[.txt]";
import { robotsTxt } from "~/platform/seo/sitemap";
import { siteOrigin } from "~/lib/site-origin.server";

export function loader({ request }: Route.LoaderArgs) {
  return new Response(robotsTxt(siteOrigin(request)), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
