import { describe, expect, it } from "vitest";
import { canonicalUrl, layoutMeta, NOINDEX, pageMeta } from "./page-meta";
import { siteConfig } from "../../../site.config";

const context = (pathname: string, origin?: string) => ({
  location: { pathname },
  matches: [{ id: "root", loaderData: origin ? { origin, currency: "USD" } : undefined }, { id: "routes/services" }],
});

describe("pageMeta", () => {
  it("appends the brand to a page title and keeps the default description", () => {
    const meta = pageMeta({ title: "Our Services" });
    expect(meta).toContainEqual({ title: `Our Services | ${siteConfig.company.name}` });
    expect(meta).toContainEqual({ name: "description", content: siteConfig.seo.defaultDescription });
    expect(meta).toContainEqual({ property: "og:title", content: `Our Services | ${siteConfig.company.name}` });
  });

  it("uses the site's default title and a page's own description", () => {
    const meta = pageMeta({ description: "Plans and prices." });
    expect(meta).toContainEqual({ title: siteConfig.seo.defaultTitle });
    expect(meta).toContainEqual({ property: "og:description", content: "Plans and prices." });
  });

  it("adds an absolute canonical link and og:url from the root's origin", () => {
    const meta = pageMeta({ title: "Our Services" }, context("/services", "https://www.example.com"));
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://www.example.com/services" });
    expect(meta).toContainEqual({ property: "og:url", content: "https://www.example.com/services" });
  });

  it("leaves the canonical out when the origin is unknown", () => {
    const meta = pageMeta({ title: "Our Services" }, context("/services"));
    expect(meta.some((tag) => "rel" in tag || ("property" in tag && tag.property === "og:url"))).toBe(false);
  });
});

describe("canonicalUrl", () => {
  it("is the origin plus the path, without query or hash", () => {
    expect(canonicalUrl(context("/", "http://127.0.0.1:3000"))).toBe("http://127.0.0.1:3000/");
    expect(canonicalUrl(context("/pre-checkout", "https://www.example.com"))).toBe(
      "https://www.example.com/pre-checkout",
    );
  });
});

describe("layoutMeta", () => {
  it("keeps the tags of the layouts above a page, in their order", () => {
    const matches = [{ meta: [] }, { meta: [NOINDEX] }, undefined, { meta: [] }];
    expect(layoutMeta(matches)).toEqual([{ name: "robots", content: "noindex" }]);
  });
});
