import { readFile } from "node:fs/promises";
import * as prettier from "prettier";
import ts from "typescript";
import type { Page } from "@playwright/test";
import { fillGeneratorForm, SKYWAY_BRAND } from "../../support/e2e/config-generator-form";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";

// The generator is admin-only. The lead adds the admin sign-in (an `asAdmin` fixture) in front of
// the first step of each admin test; until then the page is open to everyone.

const SITE_HERO_TITLE = "Simplified Travel, Extraordinary Experiences";

/** The configuration shown in the JSON preview. */
async function previewedConfig(page: Page) {
  return JSON.parse(await page.getByLabel("Configuration preview (JSON)").innerText()) as {
    company: { name: string; phone: string };
    domains: Record<string, string>;
    colors: Record<string, string>;
    content: { hero: { title: string } };
    pricing: { medium: { price: number } };
  };
}

function syntaxErrors(source: string) {
  const output = ts.transpileModule(source, { reportDiagnostics: true, fileName: "site.config.ts" });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

async function expectValidSiteConfigSource(source: string) {
  expect(source.startsWith('import type { SiteConfig } from "./app/features/site-config/types";\n')).toBe(true);
  expect(source).toContain("export const siteConfig: SiteConfig = {");
  expect(syntaxErrors(source)).toEqual([]);
  const options = await prettier.resolveConfig("site.config.ts");
  expect(await prettier.check(source, { ...options, filepath: "site.config.ts" })).toBe(true);
  expect(source).toContain('name: "Skyway Travel",');
  expect(source).toContain('primary: "350 70% 50%",');
  expect(source).toContain('primaryDark: "350 70% 35%",');
  expect(source).toContain('accent: "160 60% 40%",');
  expect(source).toContain('main: "www.skyway.example",');
  expect(source).not.toMatch(/jetlane/i);
}

test("an admin generates a rebranded site.config.ts end to end", async ({ page }) => {
  test.slow(); // signs up an admin, generates, downloads and starts again: 25 s on a loaded machine
  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Site Configuration Generator");
  await fillGeneratorForm(page, SKYWAY_BRAND);

  // Hold the page's call to its action until the busy state has been seen; the server still answers.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/config-generator\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  await expect(page.getByRole("button", { name: "Generating with AI..." })).toBeDisabled();
  await expect(page.getByText("Generating Content")).toBeVisible();
  await expect(page.getByText("AI is rephrasing all wordings for your new brand...")).toBeVisible();
  release();

  const result = page.getByRole("region", { name: "Configuration for Skyway Travel" });
  await expect(result).toBeVisible();
  await expect(page.getByRole("button", { name: "Generate Configuration" })).toBeEnabled();
  await expect(page.getByText("Generating Content")).toBeHidden();
  await expect(result).toContainText("AI is not configured");
  await expect(result).toContainText("offline rephraser was used");
  await expect(result.getByRole("listitem").filter({ hasText: "npm run build" })).toBeVisible();
  await page.mouse.move(0, 0); // axe checks the page at rest, not the button under the pointer
  expect(await seriousA11yViolations(page)).toEqual([]);

  const config = await previewedConfig(page);
  expect(config.company).toMatchObject({ name: "Skyway Travel", phone: "+44 20 7946 0000" });
  // The member area stays this site's own /account: the generator invents no members. domain.
  expect(config.domains).toMatchObject({ main: "www.skyway.example", memberArea: null });
  expect(config.colors).toMatchObject({ primary: "350 70% 50%", accent: "160 60% 40%", primaryLight: "350 70% 92%" });
  expect(config.content.hero.title).not.toBe(SITE_HERO_TITLE);
  expect(config.pricing.medium.price).toBe(49);

  const downloading = page.waitForEvent("download");
  await result.getByRole("link", { name: "Download site.config.ts" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("site.config.ts");
  const source = await readFile(await download.path(), "utf8");
  await expectValidSiteConfigSource(source);
  expect(source).toContain(`title: ${JSON.stringify(config.content.hero.title)},`);
  await expect(page.getByText("Success!")).toBeVisible();
  await expect(page.getByText("Configuration file downloaded successfully")).toBeVisible();

  await result.getByRole("button", { name: "Generate Another" }).click();
  await expect(result).toBeHidden();
  await expect(page).toHaveURL(/\/config-generator\??$/);
});

test("without a company name the generator asks for one and calls nothing", async ({ page }) => {
  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") calls.push(request.url());
  });
  await page.getByLabel("Company name").fill("   ");
  await page.getByRole("button", { name: "Generate Configuration" }).click();

  await expect(page.getByText("Missing Information")).toBeVisible();
  await expect(page.getByText("Please enter at least a company name").first()).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Company name")).toBeFocused();
  await expect(page.getByRole("region", { name: /^Configuration for/ })).toHaveCount(0);
  expect(calls).toEqual([]);
});

test("the colour pickers and the HSL text fields stay in sync both ways", async ({ page }) => {
  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  const primaryText = page.getByLabel("Primary colour", { exact: true });
  const primaryPicker = page.getByLabel("Primary colour picker");
  const accentText = page.getByLabel("Accent colour", { exact: true });
  const accentPicker = page.getByLabel("Accent colour picker");

  await expect(primaryText).toHaveValue("205 85% 45%");
  await expect(accentText).toHaveValue("42 95% 55%");
  await expect(primaryPicker).toHaveValue("#1183d4");
  await expect(accentPicker).toHaveValue("#f9b81f");

  await primaryPicker.fill("#ff0000");
  await expect(primaryText).toHaveValue("0 100% 50%");

  await accentText.fill("120 100% 25%");
  await expect(accentPicker).toHaveValue("#008000");

  // Text that is not yet a colour leaves the picker where it was.
  await accentText.fill("120 100");
  await expect(accentPicker).toHaveValue("#008000");
  await expect(primaryPicker).toHaveValue("#ff0000");
});

test("an HSL text that is not a colour is refused at the field", async ({ page }) => {
  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  await page.getByLabel("Company name").fill("Skyway Travel");
  await page.getByLabel("Accent colour", { exact: true }).fill("gold");
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  const accent = page.getByLabel("Accent colour", { exact: true });
  await expect(accent).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter the colour as H S% L%, for example 205 85% 45%")).toBeVisible();
  await expect(page.getByRole("region", { name: /^Configuration for/ })).toHaveCount(0);
});

test("the generator works with JavaScript off: the form posts, the download is a link", async ({
  browser,
  page: signInPage,
  extraHTTPHeaders,
}) => {
  // Sign in where the toasts that confirm it can show, then carry the session to a page without JavaScript.
  await signInAsNewAdmin(signInPage);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders,
    storageState: await signInPage.context().storageState(),
  });
  const page = await context.newPage();
  await page.goto("/config-generator");
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  await expect(page.getByText("Please enter at least a company name")).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveAttribute("aria-invalid", "true");

  await fillGeneratorForm(page, SKYWAY_BRAND);
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  const result = page.getByRole("region", { name: "Configuration for Skyway Travel" });
  await expect(result).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveValue("Skyway Travel");
  const href = await result.getByRole("link", { name: "Download site.config.ts" }).getAttribute("href");
  expect(href).toMatch(/^data:text\/typescript;charset=utf-8,/);
  await expectValidSiteConfigSource(decodeURIComponent(href!.slice(href!.indexOf(",") + 1)));

  await result.getByRole("button", { name: "Generate Another" }).click();
  await expect(page.getByRole("region", { name: /^Configuration for/ })).toHaveCount(0);
  await context.close();
});

test("the generator is tidy and accessible on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByLabel("Company name").fill("Skyway Travel");
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  await expect(page.getByRole("region", { name: "Configuration for Skyway Travel" })).toBeVisible();
  await page.mouse.move(0, 0); // axe checks the page at rest, not the button under the pointer
  expect(await seriousA11yViolations(page)).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a visitor is sent away from the generator", async ({ page }) => {
  await page.goto("/config-generator");
  await expect(page).toHaveURL(/\/auth$/);
});

test("the regenerate-wordings API answers 401 to a visitor", async ({ request }) => {
  const response = await request.post("/api/regenerate-wordings", {
    data: {
      currentContent: {},
      brandInfo: { companyName: "Skyway Travel", tone: "Professional, friendly, and reassuring" },
    },
  });
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ error: "Authentication required" });
});

test("an admin's call to the regenerate-wordings API answers rephrased wordings", async ({ page }) => {
  await signInAsNewAdmin(page);
  const request = page.request;
  const currentContent = {
    hero: { title: "Simplified Travel", subtitle: "From 49 per quarter at Jetlane.", cta: "Start Your Journey" },
    services: {
      fastTrack: { title: "Airport Fast Track", description: "Skip the long security queues." },
      checkIn: { title: "Automated Check-In", description: "We check you in." },
      museums: { title: "Skip-the-Line Attractions", description: "Walk straight into museums." },
      lounges: { title: "Lounge Discounts", description: "Wait for boarding in comfort." },
      ebooks: { title: "Travel E-Books", description: "Guides to read on the way." },
      concierge: { title: "Concierge Service", description: "We arrange it for you." },
    },
    concierge: {
      title: "A travel concierge in your pocket",
      description: "Our team at Jetlane takes the small jobs off your hands.",
      benefits: [{ title: "Local knowledge", description: "Tips tailored to your trip." }],
    },
    whyChooseUs: {
      title: "Why travellers choose Jetlane",
      reasons: [{ title: "Try it free", description: "3-day trial." }],
    },
    plans: {
      medium: { description: "The essentials.", features: ["Cancel anytime"] },
      premium: { description: "Everything we offer.", features: ["Unlimited automated check-ins"] },
    },
    seo: {
      defaultTitle: "Jetlane | Travel perks",
      defaultDescription: "Enjoy lounge perks.",
      keywords: ["travel membership"],
    },
  };
  const response = await request.post("/api/regenerate-wordings", {
    data: {
      currentContent,
      brandInfo: { companyName: "Skyway Travel", tone: "Professional, friendly, and reassuring" },
    },
  });
  expect(response.status()).toBe(200);
  const answer = await response.json();
  expect(answer).toMatchObject({ success: true, error: null, provider: "offline" });
  expect(answer.rephrased.whyChooseUs.title).toMatch(/Skyway Travel$/);
  expect(answer.rephrased.hero.subtitle).toContain("49");

  const invalid = await request.post("/api/regenerate-wordings", { data: { brandInfo: { companyName: "" } } });
  expect(invalid.status()).toBe(400);
  expect((await invalid.json()).error).toMatch(/^Invalid request: /);
});
