import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundMessage } from "~/components/layout/not-found-message";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { logger } from "~/logger.server";

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Page not found" }), NOINDEX];

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  logger.warn({ path: url.pathname, referrer: request.headers.get("Referer") ?? null }, "404: page not found");
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundMessage />;
}
