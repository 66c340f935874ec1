import type { Page, TestInfo } from "@playwright/test";

/**
 * Full-page screenshots at phone and desktop width, among the test's results, for a person to look
 * at; the page is left at the project's desktop size.
 */
export async function screenshots(page: Page, name: string, testInfo: TestInfo) {
  // From the top: scrolled, the sticky header would be drawn across the middle of the page.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
