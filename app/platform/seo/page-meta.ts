import type { MetaDescriptor } from "react-router";
import { siteConfig } from "../../../site.config";

interface PageMetaInput {
  /** The page's own title; the brand name is appended. Omit for the site's default title. */
  title?: string;
  description?: string;
}

/** The part of a meta function's arguments the canonical URL is built from. */
export interface MetaContext {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

/** The public origin the root loader found (SITE_URL or the request's origin). */
function originFromRoot(matches: MetaContext["matches"]): string | undefined {
  const data = matches.find((match) => match?.id === "root")?.loaderData;
  if (typeof data !== "object" || data === null || !("origin" in data)) return undefined;
  return typeof data.origin === "string" ? data.origin : undefined;
}

/** The page's absolute address without its query: the one search engines should index. */
export function canonicalUrl({ location, matches }: MetaContext): string | undefined {
  const origin = originFromRoot(matches);
  return origin ? new URL(location.pathname, origin).toString() : undefined;
}

/** Keeps a page out of search engines' results. */
export const NOINDEX: MetaDescriptor = { name: "robots", content: "noindex" };

/**
 * The tags of the layout routes above a page (the back office's `noindex`). React Router renders
 * only the deepest route's meta, so a page that has its own adds these to keep them.
 */
export function layoutMeta(matches: ReadonlyArray<{ meta: MetaDescriptor[] } | undefined>): MetaDescriptor[] {
  return matches.flatMap((match) => match?.meta ?? []);
}

/**
 * Title, description and Open Graph tags for a page, defaulting to the site's SEO texts. Given the
 * meta function's arguments, it adds the canonical link and `og:url`.
 */
export function pageMeta({ title, description }: PageMetaInput = {}, context?: MetaContext): MetaDescriptor[] {
  const fullTitle = title ? `${title} | ${siteConfig.company.name}` : siteConfig.seo.defaultTitle;
  const fullDescription = description ?? siteConfig.seo.defaultDescription;
  const url = context && canonicalUrl(context);
  return [
    { title: fullTitle },
    { name: "description", content: fullDescription },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: fullDescription },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteConfig.company.name },
    ...(url
      ? [
          { tagName: "link", rel: "canonical", href: url },
          { property: "og:url", content: url },
        ]
      : []),
  ];
}
