import { Outlet } from "react-router";
import type { Route } from "./+types/admin.layout";
import { NOINDEX } from "~/platform/seo/page-meta";
import type { DocumentHandle } from "~/root";

// What every back-office page shares: French, and kept out of search engines (a page with meta of
// its own keeps this noindex through `layoutMeta`). This layout has no loader, so it guards nothing:
// every page's loader and action calls requireAdmin itself, since React Router runs a layout's
// loader beside its children's, not before them.

export const handle = { lang: "fr" } satisfies DocumentHandle;

export const meta: Route.MetaFunction = () => [NOINDEX];

export default function AdminLayout() {
  return <Outlet />;
}
