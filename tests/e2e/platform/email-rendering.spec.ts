import { emailSamples, previewHtml } from "~/features/admin/system/email-samples";
import { siteConfig } from "../../../site.config";
import { expect, test } from "../../support/e2e/fixtures";

// Every e-mail the site sends, as a mail client's narrow and wide panes show it. The pages load
// previewHtml, the mail with its cid: images put inline, since a browser cannot resolve cid: itself.
const ORIGIN = `https://${siteConfig.domains.main}`;
const samples = await emailSamples(ORIGIN);

for (const sample of samples) {
  test.describe(`the ${sample.id} e-mail`, () => {
    test("shows no data: image, and every cid: image is one of its attachments", () => {
      expect(sample.html).not.toMatch(/data:/i);
      const references = [...sample.html.matchAll(/src="cid:([^"]+)"/g)].map((match) => match[1]);
      const inline = sample.attachments.filter((attachment) => attachment.cid).map((attachment) => attachment.cid);
      for (const cid of references) expect(inline).toContain(cid);
      expect(previewHtml(sample)).not.toContain("cid:");
    });

    test("links only to absolute addresses on the site's own origin", async ({ page }) => {
      await page.setContent(previewHtml(sample));
      const hrefs = await page
        .locator("a[href]")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
      for (const href of hrefs) expect(new URL(href).origin, href).toBe(ORIGIN);
    });

    test("carries its facts in the plain-text part as in the HTML", async ({ page }) => {
      await page.setContent(previewHtml(sample));
      const shown = await page.locator("body").innerText();
      for (const fact of sample.facts) {
        expect(sample.text, "plain text").toContain(fact);
        expect(shown, "HTML").toContain(fact);
      }
    });

    for (const width of [375, 600]) {
      test(`fits a ${width} px wide pane without a horizontal scroll bar`, async ({ page }, testInfo) => {
        await page.setViewportSize({ width, height: 800 });
        await page.setContent(previewHtml(sample));
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth, "page width").toBeLessThanOrEqual(clientWidth);
        for (const image of await page.locator("img").all()) {
          expect(
            await image.evaluate((element: HTMLImageElement) => element.naturalWidth),
            "image loaded",
          ).toBeGreaterThan(0);
        }
        if (width === 375) {
          await page.screenshot({ path: testInfo.outputPath(`${sample.id}-375.png`), fullPage: true });
        }
      });
    }
  });
}
