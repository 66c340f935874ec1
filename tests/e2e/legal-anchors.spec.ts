import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** How far the section is from where a link to it should put it: at the top, below its scroll margin. */
async function distanceFromItsPlace(page: Page, id: string) {
  return page.locator(`section#${id}`).evaluate((section) => {
    const margin = parseFloat(getComputedStyle(section).scrollMarginTop);
    return Math.round(section.getBoundingClientRect().top - margin);
  });
}

// The sections are drawn as they near the viewport: a smooth scroll would aim before they are, so
// test with the motion readers get. A trace's DOM snapshots would draw every section at once after
// each action, as no reader's browser does, and move the page: the trace keeps screenshots only.
test.use({ reducedMotion: "no-preference", trace: { mode: "retain-on-failure", snapshots: false } });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`links to a section of a legal text put it at the top of a ${viewport.width} px wide screen`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/terms");
    await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Payment" }).click();
    await expect(page).toHaveURL(/#payment$/);
    await expect.poll(() => distanceFromItsPlace(page, "payment")).toBe(0);

    await page.goto("/subscription-terms");
    await page.getByRole("main").getByRole("link", { name: "model cancellation form" }).click();
    await expect(page).toHaveURL(/\/terms#cancellation-form$/);
    await expect.poll(() => distanceFromItsPlace(page, "cancellation-form")).toBe(0);

    await page.goto("/privacy#retention");
    await expect.poll(() => distanceFromItsPlace(page, "retention")).toBe(0);
  });
}
