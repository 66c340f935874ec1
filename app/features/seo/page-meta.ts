import type { MetaDescriptor } from "react-router";
import { siteConfig } from "../../../site.config";

interface PageMetaInput {
  /** The page's own title; the brand name is appended. Omit for the site's default title. */
  title?: string;
  description?: string;
}

/** Title, description and Open Graph tags for a page, defaulting to the site's SEO texts. */
export function pageMeta({ title, description }: PageMetaInput = {}): MetaDescriptor[] {
  const fullTitle = title ? `${title} | ${siteConfig.company.name}` : siteConfig.seo.defaultTitle;
  const fullDescription = description ?? siteConfig.seo.defaultDescription;
  return [
    { title: fullTitle },
    { name: "description", content: fullDescription },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: fullDescription },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteConfig.company.name },
  ];
}
