import { describe, expect, it } from "vitest";
import { robotsTxt, sitemapXml } from "./sitemap";

describe("sitemapXml", () => {
  it("lists every public page as an absolute URL", () => {
    const xml = sitemapXml("https://www.example.com");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      [
        "/",
        "/services",
        "/pre-checkout",
        "/fast-track",
        "/fast-track-form",
        "/contact",
        "/unsubscribe",
        "/withdraw",
        "/terms",
        "/subscription-terms",
        "/privacy",
        "/faq",
      ].map((path) => `https://www.example.com${path}`),
    );
    expect(xml).not.toContain("/admin");
  });
});

describe("robotsTxt", () => {
  it("keeps crawlers out of the private pages and points them to the sitemap", () => {
    expect(robotsTxt("http://127.0.0.1:3000")).toBe(
      [
        "User-agent: *",
        "Disallow: /admin",
        "Disallow: /auth",
        "Disallow: /config-generator",
        "Disallow: /fast-track-payment/",
        "",
        "Sitemap: http://127.0.0.1:3000/sitemap.xml",
        "",
      ].join("\n"),
    );
  });
});
