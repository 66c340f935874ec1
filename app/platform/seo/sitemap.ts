/** The pages search engines should find: every public page of the site. */
export const PUBLIC_PAGE_PATHS = [
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
] as const;

/** Internal, personal or per-order pages that have no business in a search index. */
export const DISALLOWED_PATHS = ["/admin", "/auth", "/config-generator", "/fast-track-payment/"] as const;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char]!);

export function sitemapXml(origin: string): string {
  const urls = PUBLIC_PAGE_PATHS.map(
    (path) => `  <url><loc>${escapeXml(new URL(path, origin).toString())}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${new URL("/sitemap.xml", origin).toString()}`,
    "",
  ].join("\n");
}
