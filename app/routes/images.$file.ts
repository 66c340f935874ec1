import { data } from "react-router";
import type { Route } from "./+types/images.$file";
import { illustrationSvg } from "~/features/illustrations/illustrations";
import { siteConfig } from "../../site.config";

/** The site's illustrations, drawn in the configured brand colours. */
export function loader({ params }: Route.LoaderArgs) {
  const svg = illustrationSvg(params.file, siteConfig.colors);
  if (!svg) throw data("Not found", { status: 404 });
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
