import type { Browser, Page } from "@playwright/test";
import { expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";
import { PUBLIC_PAGE_PATHS } from "~/platform/seo/sitemap";
import { siteConfig } from "../../../site.config";

/** Where 'Start Free Trial' leads while the partner domains are placeholders: this site's membership checkout. */
const checkout = (plan: "medium" | "premium", currency: string) =>
  `/membership-checkout?plan=${plan}&currency=${currency}${plan === "medium" ? "&product=_3m_49" : ""}`;

async function chooseCurrency(page: Page, label: string) {
  const header = page.getByRole("banner");
  await header.locator("summary").click();
  await header.getByRole("button", { name: label }).click();
  // On a page that is not hydrated the choice posts and the page loads again: wait for its stylesheet,
  // which hides the inactive tab panels. On a hydrated page nothing loads and this returns at once.
  await page.waitForLoadState();
}

async function withoutJavaScript(browser: Browser, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Every illustration on the page came from this site and actually loaded. */
async function expectImagesLoaded(page: Page) {
  const images = page.locator("main img");
  await expect(images.first()).toBeVisible();
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect(image).toHaveJSProperty("complete", true);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await image.getAttribute("src")).toMatch(/^\/images\/[a-z-]+\.svg$/);
    expect(await image.getAttribute("alt")).toBeTruthy();
    expect(await image.getAttribute("width")).toMatch(/^\d+$/);
    expect(await image.getAttribute("height")).toMatch(/^\d+$/);
  }
}

test.describe("home", () => {
  test("shows the hero, concierge, six services, both plans, the about text and the calls to action", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(siteConfig.seo.defaultTitle);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simplified Travel, Extraordinary Experiences");
    await expect(page.getByRole("main")).toContainText("From $49 per quarter");
    await expect(page.getByRole("link", { name: "Start Your Journey" })).toHaveAttribute("href", "/pre-checkout");

    await expect(page.getByRole("heading", { level: 2, name: siteConfig.content.concierge.title })).toBeVisible();

    const services = page.getByRole("region", { name: "Six services, one membership" });
    const cards = services.getByRole("listitem");
    await expect(cards).toHaveCount(6);
    const { fastTrack, checkIn, lounges, museums, ebooks, concierge } = siteConfig.content.services;
    for (const [{ title }, href] of [
      [fastTrack, "/services#fast-track"],
      [checkIn, "/services#checkin"],
      [lounges, "/services#subscription"],
      [museums, "/services#ticketline"],
      [ebooks, "/services#ebooks"],
      [concierge, "/services#concierge"],
    ] as const) {
      await expect(services.getByRole("link", { name: title })).toHaveAttribute("href", href);
    }

    const pricing = page.locator("#pricing-section");
    await expect(pricing.getByRole("article")).toHaveCount(2);
    const medium = pricing.getByRole("article", { name: "Medium" });
    const premium = pricing.getByRole("article", { name: "Premium" });
    await expect(medium).toContainText("$49");
    await expect(medium).toContainText("Every 3 months");
    await expect(medium).toContainText("Up to 2 free fast-track accesses per month");
    await expect(premium).toContainText("$79");
    await expect(premium).toContainText("Exclusive lounge discounts");
    await expect(premium).toContainText("Most popular");
    await expect(medium).not.toContainText("Most popular");
    await expect(medium.getByRole("link", { name: "Start Now" })).toHaveAttribute("href", "/pre-checkout?plan=medium");
    await expect(premium.getByRole("link", { name: "Start Now" })).toHaveAttribute(
      "href",
      "/pre-checkout?plan=premium",
    );

    await expect(page.getByRole("heading", { level: 2, name: siteConfig.content.whyChooseUs.title })).toBeVisible();
    for (const reason of siteConfig.content.whyChooseUs.reasons) {
      await expect(page.getByRole("heading", { level: 3, name: reason.title })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/pre-checkout");
    await expectImagesLoaded(page);
  });

  test("prices follow the visitor's currency", async ({ page }) => {
    await page.goto("/");
    await chooseCurrency(page, "Euros");
    await expect(page.getByRole("main")).toContainText("From €49 per quarter");
    const pricing = page.locator("#pricing-section");
    await expect(pricing.getByRole("article", { name: "Medium" })).toContainText("€49");
    await expect(pricing.getByRole("article", { name: "Premium" })).toContainText("€79");
  });

  test("a plan's Start Now opens the selection page with that plan chosen", async ({ page }) => {
    await page.goto("/");
    await page.locator("#pricing-section").getByRole("article", { name: "Medium" }).getByRole("link").click();
    await expect(page).toHaveURL("/pre-checkout?plan=medium");
    await expect(page.getByRole("tabpanel").getByRole("radio", { name: /^Medium/ })).toBeChecked();
  });
});

test.describe("header highlight", () => {
  test("the header is highlighted while the pricing section is at the top, and not before", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("data-highlighted", "false");
    const plainBackground = await header.evaluate((element) => getComputedStyle(element).backgroundColor);

    // 100px below the top: still more than the 80px threshold.
    await page.evaluate(() => {
      const top = document.getElementById("pricing-section")!.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: top - 100, behavior: "instant" });
    });
    await expect(header).toHaveAttribute("data-highlighted", "false");

    await page.evaluate(() => {
      const top = document.getElementById("pricing-section")!.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top, behavior: "instant" });
    });
    await expect(header).toHaveAttribute("data-highlighted", "true");
    await expect
      .poll(() => header.evaluate((element) => getComputedStyle(element).backgroundColor))
      .not.toBe(plainBackground);

    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await expect(header).toHaveAttribute("data-highlighted", "false");
    await expect
      .poll(() => header.evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe(plainBackground);
  });
});

test.describe("services", () => {
  const TABS = [
    ["subscription", "Membership"],
    ["fast-track", "Fast Track"],
    ["ticketline", "Attractions"],
    ["ebooks", "E-Books"],
    ["concierge", "Concierge"],
    ["checkin", "Check-In"],
  ] as const;

  test("shows the six service tabs, the concierge, help texts, pricing, the contact section and the calls to action", async ({
    page,
  }) => {
    await page.goto("/services");
    await expect(page).toHaveTitle(`Our Services | ${siteConfig.company.name}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Services");
    const startNow = page.getByRole("link", { name: "Start Now" });
    await expect(startNow).toHaveCount(2);
    for (const link of await startNow.all()) await expect(link).toHaveAttribute("href", "/pre-checkout");

    const tabs = page.getByRole("tab");
    await expect(tabs).toHaveText(TABS.map(([, label]) => label));
    await expect(page.getByRole("tab", { name: "Membership" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("One membership for the whole journey");

    await page.getByRole("tab", { name: "Attractions" }).click();
    await expect(page.getByRole("tabpanel")).toHaveCount(1);
    await expect(page.getByRole("tabpanel")).toContainText(siteConfig.content.services.museums.title);
    await page.getByRole("tab", { name: "E-Books" }).click();
    await expect(page.getByRole("tabpanel")).toContainText("Packing checklists");

    await expect(page.getByRole("heading", { name: siteConfig.content.concierge.title })).toBeVisible();
    for (const benefit of siteConfig.content.concierge.benefits) {
      await expect(page.getByText(benefit.description)).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Your travel assistance hub" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "24/7 support" })).toBeVisible();

    const pricing = page.locator("#pricing-section");
    await expect(pricing.getByRole("link", { name: "Try Now" })).toHaveCount(2);
    await expect(
      pricing.getByRole("article", { name: "Medium" }).getByRole("link", { name: "Try Now" }),
    ).toHaveAttribute("href", "/pre-checkout?plan=medium");
    await expect(
      pricing.getByRole("article", { name: "Premium" }).getByRole("link", { name: "Try Now" }),
    ).toHaveAttribute("href", "/pre-checkout?plan=premium");

    await expect(page.getByRole("region", { name: "Contact Us" })).toBeVisible();
    await expectImagesLoaded(page);
  });

  for (const [id, label] of TABS) {
    test(`arriving on /services#${id} opens the ${label} tab`, async ({ page }) => {
      await page.goto(`/services#${id}`);
      const tab = page.getByRole("tab", { name: label });
      await expect(tab).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel")).toHaveCount(1);
      await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
    });
  }

  test("an unknown hash keeps the first tab", async ({ page }) => {
    await page.goto("/services#pricing-section");
    await expect(page.getByRole("tab", { name: "Membership" })).toHaveAttribute("aria-selected", "true");
  });

  test("the footer's service links switch the tab, also while on the page", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Automated Check-In" }).click();
    await expect(page).toHaveURL("/services#checkin");
    await expect(page.getByRole("tab", { name: "Check-In" })).toHaveAttribute("aria-selected", "true");

    await footer.getByRole("link", { name: "Concierge" }).click();
    await expect(page).toHaveURL("/services#concierge");
    await expect(page.getByRole("tab", { name: "Concierge" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText(siteConfig.content.services.concierge.title);

    // A tab picked by hand gives way to the next link that names one.
    await page.getByRole("tab", { name: "E-Books" }).click();
    await expect(page.getByRole("tab", { name: "E-Books" })).toHaveAttribute("aria-selected", "true");
    await footer.getByRole("link", { name: "Concierge" }).click();
    await expect(page.getByRole("tab", { name: "Concierge" })).toHaveAttribute("aria-selected", "true");

    await footer.getByRole("link", { name: "Membership", exact: true }).click();
    await expect(page).toHaveURL("/services#subscription");
    await expect(page.getByRole("tab", { name: "Membership" })).toHaveAttribute("aria-selected", "true");
  });
});

test.describe("pre-checkout", () => {
  const trialButton = (page: Page) => page.getByRole("tabpanel").getByRole("link", { name: "Start Free Trial" });
  const planRadio = (page: Page, name: "Medium" | "Premium") =>
    page.getByRole("tabpanel").getByRole("radio", { name: new RegExp(`^${name}`) });

  async function openedUrl(page: Page) {
    const popup = page.waitForEvent("popup");
    await trialButton(page).click();
    const tab = await popup;
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    await tab.close();
    return url.pathname + url.search;
  }

  test("offers both plans on both tabs, premium first chosen, and opens the right checkout", async ({ page }) => {
    await page.goto("/pre-checkout");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose Your Plan");
    await expect(page.getByRole("tab")).toHaveText(["Fast Track", "Automated Check-In"]);
    await expect(page.getByRole("tab", { name: "Fast Track" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel").getByRole("radiogroup", { name: "Choose your plan" })).toBeVisible();
    await expect(planRadio(page, "Premium")).toBeChecked();
    await expect(planRadio(page, "Medium")).not.toBeChecked();

    const trial = trialButton(page);
    await expect(trial).toHaveAttribute("target", "_blank");
    expect(await openedUrl(page)).toBe(checkout("premium", "USD"));

    // Clicking anywhere on a card chooses it.
    await page.getByRole("tabpanel").getByText("Priority entry to selected museums").click();
    await expect(planRadio(page, "Medium")).toBeChecked();
    await expect(page).toHaveURL("/pre-checkout?plan=medium&tab=fast-track");
    expect(await openedUrl(page)).toBe(checkout("medium", "USD"));

    await page.getByRole("tab", { name: "Automated Check-In" }).click();
    await expect(page.getByRole("tab", { name: "Automated Check-In" })).toHaveAttribute("aria-selected", "true");
    await expect(planRadio(page, "Medium")).toBeChecked();
    expect(await openedUrl(page)).toBe(checkout("medium", "USD"));

    await planRadio(page, "Premium").check();
    expect(await openedUrl(page)).toBe(checkout("premium", "USD"));
  });

  test("the plan comes from ?plan=, and anything but medium or premium means premium", async ({ page }) => {
    await page.goto("/pre-checkout?plan=medium");
    await expect(planRadio(page, "Medium")).toBeChecked();
    await page.goto("/pre-checkout?plan=gold");
    await expect(planRadio(page, "Premium")).toBeChecked();
    await page.goto("/pre-checkout?plan=medium&tab=checkin");
    await expect(page.getByRole("tab", { name: "Automated Check-In" })).toHaveAttribute("aria-selected", "true");
    await expect(trialButton(page)).toHaveAttribute("href", checkout("medium", "USD"));
  });

  test("the plan can be chosen with the arrow keys", async ({ page }) => {
    await page.goto("/pre-checkout");
    await planRadio(page, "Premium").focus();
    await page.keyboard.press("ArrowLeft");
    await expect(planRadio(page, "Medium")).toBeChecked();
    await expect(trialButton(page)).toHaveAttribute("href", checkout("medium", "USD"));
  });

  test("the trial carries the currency the visitor switched to, and the choice survives the switch", async ({
    page,
  }) => {
    await page.goto("/pre-checkout?plan=medium&tab=checkin");
    await chooseCurrency(page, "Great Britain Pounds");
    await expect(page.getByRole("tabpanel")).toContainText("£49");
    await expect(planRadio(page, "Medium")).toBeChecked();
    expect(await openedUrl(page)).toBe(checkout("medium", "GBP"));

    await page.getByRole("tab", { name: "Fast Track" }).click();
    await chooseCurrency(page, "Euros");
    await expect(page.getByRole("tabpanel")).toContainText("€49");
    await planRadio(page, "Premium").check();
    expect(await openedUrl(page)).toBe(checkout("premium", "EUR"));
  });
});

test.describe("tabs on pages that are not hydrated (tabs.script.js)", () => {
  const isHydrated = (page: Page) => page.evaluate(() => "__reactRouterContext" in window);

  test("on /services the arrow keys, Home and End move between the tabs and open them", async ({ page }) => {
    await page.goto("/services");
    expect(await isHydrated(page)).toBe(false);
    const tab = (name: string) => page.getByRole("tab", { name, exact: true });
    // One tab stop in the list: the open tab.
    await page.getByRole("link", { name: "Start Now" }).first().focus();
    await page.keyboard.press("Tab");
    await expect(tab("Membership")).toBeFocused();

    await page.keyboard.press("ArrowRight");
    await expect(tab("Fast Track")).toBeFocused();
    await expect(tab("Fast Track")).toHaveAttribute("aria-selected", "true");
    await expect(tab("Membership")).toHaveAttribute("aria-selected", "false");
    await expect(tab("Fast Track")).toHaveAttribute("tabindex", "0");
    await expect(tab("Membership")).toHaveAttribute("tabindex", "-1");
    await expect(page.getByRole("tabpanel")).toHaveCount(1);
    await expect(page.getByRole("tabpanel")).toContainText(siteConfig.content.services.fastTrack.title);

    await page.keyboard.press("End");
    await expect(tab("Check-In")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight");
    await expect(tab("Membership")).toBeFocused();
    await expect(tab("Membership")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(tab("Check-In")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(tab("Membership")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("One membership for the whole journey");
  });

  test("on /services a picked tab is put in the hash, so that a reload keeps it", async ({ page }) => {
    await page.goto("/services");
    await page.getByRole("tab", { name: "E-Books" }).click();
    await expect(page).toHaveURL("/services#ebooks");
    await page.reload();
    await expect(page.getByRole("tab", { name: "E-Books" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("Packing checklists");

    // Going back to an earlier hash opens its tab again.
    await page.getByRole("contentinfo").getByRole("link", { name: "Concierge" }).click();
    await expect(page.getByRole("tab", { name: "Concierge" })).toHaveAttribute("aria-selected", "true");
    await page.goBack();
    await expect(page).toHaveURL("/services#ebooks");
    await expect(page.getByRole("tab", { name: "E-Books" })).toHaveAttribute("aria-selected", "true");
  });

  test("on /pre-checkout the tab and plan go into the URL, both plan choices agree, and a reload keeps them", async ({
    page,
  }) => {
    await page.goto("/pre-checkout");
    expect(await isHydrated(page)).toBe(false);
    const fastTrack = page.getByRole("tabpanel", { name: "Fast Track" });
    const checkIn = page.locator('[role="tabpanel"]').filter({ hasText: "Automated Check-In membership" });

    await page.getByRole("tab", { name: "Automated Check-In" }).click();
    await expect(page).toHaveURL("/pre-checkout?plan=premium&tab=checkin");
    await checkIn.getByText("Priority entry to selected museums").click();
    await expect(page).toHaveURL("/pre-checkout?plan=medium&tab=checkin");
    await expect(checkIn.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute(
      "href",
      checkout("medium", "USD"),
    );

    await page.getByRole("tab", { name: "Automated Check-In" }).press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Fast Track" })).toBeFocused();
    await expect(page).toHaveURL("/pre-checkout?plan=medium&tab=fast-track");
    await expect(fastTrack.getByRole("radio", { name: /^Medium/ })).toBeChecked();
    await expect(fastTrack.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute(
      "href",
      checkout("medium", "USD"),
    );

    await page.getByRole("tab", { name: "Fast Track" }).press("End");
    await expect(page.getByRole("tab", { name: "Automated Check-In" })).toHaveAttribute("aria-selected", "true");
    await checkIn.getByRole("radio", { name: /^Premium/ }).check();
    await page.reload();
    await expect(page.getByRole("tab", { name: "Automated Check-In" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel").getByRole("radio", { name: /^Premium/ })).toBeChecked();
    await page.getByRole("tab", { name: "Fast Track" }).click();
    await expect(page.getByRole("tabpanel").getByRole("radio", { name: /^Premium/ })).toBeChecked();
    await expect(page).toHaveURL("/pre-checkout?plan=premium&tab=fast-track");
  });

  test("after a client-side navigation from a hydrated page, React switches the tabs and the script stays out", async ({
    page,
  }) => {
    await page.goto("/auth");
    expect(await isHydrated(page)).toBe(true);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Services" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Services");
    // The script was loaded (React hoisted it), and a tab still switches once: no double handling.
    await expect(page.locator('script[src*="/tabs.script-"]')).toHaveCount(1);
    await page.getByRole("tab", { name: "Concierge" }).click();
    await expect(page.getByRole("tab", { name: "Concierge" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Check-In" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Check-In" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toHaveCount(1);
    await expect(page).toHaveURL("/services");
  });
});

test.describe("fast-track landing", () => {
  test("shows the price, tagline, the ten airports, the benefits and both Book Now links", async ({ page }) => {
    await page.goto("/fast-track");
    await expect(page).toHaveTitle(`Airport Fast Track | ${siteConfig.company.name}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from $5");
    await expect(page.getByText("Less queuing at airports, faster boarding to gate")).toBeVisible();

    const airport = page.getByLabel("Departure airport");
    const codes = await airport
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(codes).toEqual(["CDG", "ORY", "LHR", "AMS", "FRA", "MAD", "BCN", "FCO", "DXB", "JFK"]);
    await expect(airport.locator("option", { hasText: "London Heathrow (LHR)" })).toHaveCount(1);
    await airport.selectOption("FCO");
    await expect(airport).toHaveValue("FCO");

    for (const title of ["Speedy process", "Smooth and easy", "Convenient"]) {
      await expect(page.getByRole("heading", { level: 3, name: title })).toBeVisible();
    }
    const premium = page.getByRole("region", { name: "Premium Fast Track Service" });
    await expect(premium.getByRole("listitem")).toHaveCount(4);
    await expect(premium).toContainText(
      "Your first Fast Track purchase includes a 3-day free trial of our membership, then $49 every quarter.",
    );
    await expect(page.getByRole("heading", { level: 2, name: "SEE YOUR AIRPORT AVAILABILITY" })).toBeVisible();

    const bookNow = page.getByRole("link", { name: "Book Now" });
    await expect(bookNow).toHaveCount(2);
    for (const link of await bookNow.all()) await expect(link).toHaveAttribute("href", "/fast-track-form");
    await bookNow.first().click();
    await expect(page).toHaveURL("/fast-track-form");
  });

  test("the prices follow the currency", async ({ page }) => {
    await page.goto("/fast-track");
    await chooseCurrency(page, "Great Britain Pounds");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from £5");
    await expect(page.getByRole("region", { name: "Premium Fast Track Service" })).toContainText(
      "then £49 every quarter",
    );
    await expectImagesLoaded(page);
  });
});

test.describe("search engines", () => {
  test("sitemap.xml lists every public page with absolute URLs", async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const xml = await response.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    // sitemap.test.ts holds PUBLIC_PAGE_PATHS to the list of public pages.
    expect(locations).toEqual(PUBLIC_PAGE_PATHS.map((path) => new URL(path, baseURL).toString()));
  });

  test("robots.txt keeps crawlers out of private pages and points to the sitemap", async ({ request, baseURL }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain");
    const lines = (await response.text()).split("\n");
    for (const path of ["/admin", "/auth", "/config-generator", "/fast-track-payment/"]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${new URL("/sitemap.xml", baseURL).toString()}`);
  });

  for (const path of PUBLIC_PAGE_PATHS) {
    test(`${path} has a description, an absolute canonical URL and Open Graph tags`, async ({ page, baseURL }) => {
      await page.goto(`${path}?utm_source=test`);
      const canonical = new URL(path, baseURL).toString();
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", canonical);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\w{3,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", await page.title());
    });
  }
});

test.describe("accessibility", () => {
  for (const path of ["/", "/services", "/services#checkin", "/pre-checkout", "/fast-track"]) {
    test(`${path} has one h1 and no serious axe violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }

  test("the pages also pass at phone width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/", "/services", "/pre-checkout", "/fast-track"]) {
      await page.goto(path);
      expect(await seriousA11yViolations(page), path).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });
});

test.describe("without JavaScript", () => {
  test("the home page shows everything and its links work", async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simplified Travel, Extraordinary Experiences");
      await expect(page.locator("#pricing-section").getByRole("article")).toHaveCount(2);
      await page.getByRole("link", { name: "Start Your Journey" }).click();
      await expect(page).toHaveURL("/pre-checkout");
    });
  });

  test("the services page shows every tab's content and the footer's links reach them", async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto("/services");
      await expect(page.getByRole("tablist")).toBeHidden();
      for (const id of ["subscription", "fast-track", "ticketline", "ebooks", "concierge", "checkin"]) {
        await expect(page.locator(`[id="${id}"]`)).toBeVisible();
      }
      await page.getByRole("contentinfo").getByRole("link", { name: "Automated Check-In" }).click();
      await expect(page).toHaveURL("/services#checkin");
      await expect(page.locator('[id="checkin"]')).toBeInViewport();
      await page.getByRole("link", { name: "Start Now" }).first().click();
      await expect(page).toHaveURL("/pre-checkout");
    });
  });

  test("on the selection page a plan can be chosen and the trial button follows it", async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto("/pre-checkout");
      const fastTrack = page.getByRole("tabpanel").filter({ hasText: "Fast Track membership" });
      const checkIn = page.getByRole("tabpanel").filter({ hasText: "Automated Check-In membership" });
      await expect(fastTrack).toBeVisible();
      await expect(checkIn).toBeVisible();

      const fastTrackTrial = fastTrack.getByRole("link", { name: "Start Free Trial" });
      await expect(fastTrackTrial).toHaveAttribute("href", checkout("premium", "USD"));
      await fastTrack.getByText("Priority entry to selected museums").click();
      await expect(fastTrack.getByRole("radio", { name: /^Medium/ })).toBeChecked();
      await expect(fastTrackTrial).toHaveAttribute("href", checkout("medium", "USD"));

      const checkInTrial = checkIn.getByRole("link", { name: "Start Free Trial" });
      await expect(checkInTrial).toHaveAttribute("href", checkout("premium", "USD"));
      await checkIn.getByRole("radio", { name: /^Medium/ }).check();
      await expect(checkInTrial).toHaveAttribute("href", checkout("medium", "USD"));
    });
  });

  test("the fast-track landing shows its airports and Book Now works", async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto("/fast-track");
      await expect(page.getByLabel("Departure airport").locator("option")).toHaveCount(10);
      await page.getByRole("link", { name: "Book Now" }).last().click();
      await expect(page).toHaveURL("/fast-track-form");
    });
  });
});
