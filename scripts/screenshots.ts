// Screenshots of every page at phone (390 px) and desktop (1280 px) width, for a person to look at.
// Usage: npx tsx scripts/screenshots.ts [base URL, default http://127.0.0.1:3000] [page paths...]
import { mkdirSync } from "node:fs";
import { chromium } from "@playwright/test";
import { PUBLIC_PAGE_PATHS } from "../app/platform/seo/sitemap";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/chromium";

const [baseUrl = "http://127.0.0.1:3000", ...requested] = process.argv.slice(2);
const paths = requested.length
  ? requested
  : [...PUBLIC_PAGE_PATHS, "/auth", "/admin", "/config-generator", "/no-such-page"];
const outDir = "test-results/screenshots";
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (const width of [390, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: width === 390 ? 844 : 800 } });
  for (const path of paths) {
    await page.goto(new URL(path, baseUrl).toString());
    const name = path === "/" ? "home" : path.slice(1).replaceAll("/", "_");
    await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
console.log(`screenshots written to ${outDir}`);
