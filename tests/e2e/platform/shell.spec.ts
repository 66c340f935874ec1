import { expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";

test("an unknown path answers 404 with the not-found page and a link home", async ({ page }) => {
  const response = await page.goto("/no/such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simplified Travel, Extraordinary Experiences");
});

test("the currency menu changes the symbol shown, and the choice survives a reload", async ({ page }) => {
  await page.goto("/fast-track");
  const header = page.getByRole("banner");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from $5");
  await expect(header.getByTestId("currency-symbol")).toHaveText("$");

  await header.getByText("USD").click();
  await header.getByRole("button", { name: "Euros" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from €5");

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from €5");
  await expect(header.getByTestId("currency-symbol")).toHaveText("€");
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "currency")?.value).toBe("EUR");
});

test("the currency menu works with JavaScript off", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/fast-track");
  const header = page.getByRole("banner");
  await header.getByText("USD").click();
  await header.getByRole("button", { name: "Great Britain Pounds" }).click();
  await expect(page).toHaveURL("/fast-track");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fast Track - from £5");
  await context.close();
});

test("the header and footer carry the site's links", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [name, href] of [
    ["Home", "/"],
    ["Services", "/services"],
    ["Contact", "/contact"],
    ["Unsubscribe", "/unsubscribe"],
  ] as const) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: /^\+31/ })).toHaveAttribute("href", /^tel:\+31\d+$/);
  const login = header.getByRole("link", { name: /Login/ });
  await expect(login).toHaveAttribute("target", "_blank");
  // No separate member site is configured on a fresh clone: the member area is this site's own.
  await expect(login).toHaveAttribute("href", "/account");

  const footer = page.getByRole("contentinfo");
  const footerHrefs = await footer
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  for (const href of [
    "/",
    "/services",
    "/contact",
    "/terms",
    "/subscription-terms",
    "/privacy",
    "/faq",
    "/services#subscription",
    "/services#fast-track",
    "/services#checkin",
    "/services#concierge",
  ]) {
    expect(footerHrefs).toContain(href);
  }
  await expect(footer).toContainText("Amsterdam, Netherlands");
  await expect(footer).toContainText("© 2025");
  await expect(footer.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
});

test("the mobile menu opens with its toggle and closes with Escape, its close button or a link", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // A hydrated page: following a link is a client-side navigation, and the menu closes for the new page.
  await page.goto("/contact");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  const toggle = page.getByRole("button", { name: "Open menu" });
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu).toBeHidden();
  await toggle.click();
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  await toggle.click();
  await menu.getByRole("button", { name: "Close" }).click();
  await expect(menu).toBeHidden();

  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await menu.getByRole("link", { name: "Services" }).click();
  await expect(page).toHaveURL("/services");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Services");
  await expect(menu).toBeHidden();
});

/** Each page that is not hydrated, with the standalone scripts it brings (none of the framework's). */
const PAGES_WITHOUT_FRAMEWORK: Record<string, string[]> = {
  "/": ["pricing-highlight"],
  "/services": ["tabs", "pricing-highlight", "status-button"],
  "/pre-checkout": ["tabs"],
  "/fast-track": [],
  "/fast-track-form": ["status-button", "booking-total"],
  "/contact": ["status-button"],
  "/unsubscribe": ["status-button"],
  "/terms": [],
  "/subscription-terms": [],
  "/privacy": [],
  "/faq": [],
};

test("the pages that need no React load no framework script, only the small scripts of their own", async ({ page }) => {
  for (const [path, ownScripts] of Object.entries(PAGES_WITHOUT_FRAMEWORK)) {
    const scripts: string[] = [];
    const listener = (request: { resourceType(): string; url(): string }) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    };
    page.on("request", listener);
    await page.goto(path, { waitUntil: "networkidle" });
    page.off("request", listener);
    // The pricing section brings the script that highlights the header, the tabs the one that switches
    // them, a form the one that shows it busy, the booking form the one that keeps its total.
    expect(scripts.toSorted(), path).toEqual(
      ownScripts.toSorted().map((name) => expect.stringMatching(new RegExp(`^/assets/${name}\\.script-`))),
    );
  }
});

for (const javaScriptEnabled of [true, false]) {
  test(`on a page without React the mobile menu opens, closes and leads on (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto("/faq");
    const toggle = page.getByRole("button", { name: "Open menu" });
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link", { name: /Login/ })).toHaveAttribute("target", "_blank");
    await page.mouse.click(20, 400);
    await expect(menu).toBeHidden();

    await toggle.click();
    await menu.getByRole("link", { name: "Unsubscribe" }).click();
    await expect(page).toHaveURL("/unsubscribe");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe");
    await expect(menu).toBeHidden();
    await context.close();
  });
}

test("every page renders its title, in French on /auth", async ({ page }) => {
  const expected: [string, string, string][] = [
    ["/", "Simplified Travel, Extraordinary Experiences", "en"],
    ["/services", "Our Services", "en"],
    ["/pre-checkout", "Choose Your Plan", "en"],
    ["/fast-track", "Fast Track - from $5", "en"],
    ["/fast-track-form", "Book Your Fast Track", "en"],
    ["/contact", "CONTACT US", "en"],
    ["/unsubscribe", "Unsubscribe", "en"],
    ["/terms", "Terms and Conditions", "en"],
    ["/subscription-terms", "Subscription Terms", "en"],
    ["/privacy", "Privacy Policy", "en"],
    ["/faq", "Frequently Asked Questions", "en"],
    ["/auth", "Connexion", "fr"],
  ];
  for (const [path, title, lang] of expected) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(title);
    await expect(page.locator("html"), path).toHaveAttribute("lang", lang);
  }
});

test("the shell has no serious accessibility violations", async ({ page }) => {
  await page.goto("/");
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.goto("/does-not-exist");
  expect(await seriousA11yViolations(page)).toEqual([]);
});
