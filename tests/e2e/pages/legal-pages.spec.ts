import type { Page } from "@playwright/test";
import { formatPrice } from "../../../app/lib/currency";
import { WITHDRAW_PATH, modelWithdrawalForm } from "../../../app/features/legal/model-withdrawal-form";
import { MEMBERSHIP_TERMS } from "../../../app/features/memberships/membership-terms";
import { STATEMENT_DESCRIPTOR } from "../../../app/features/payments/statement-descriptor";
import { RETENTION } from "../../../app/features/privacy/retention";
import { formatPeriod } from "../../../app/lib/format-period";
import { siteConfig } from "../../../site.config";
import { expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";
import { screenshots } from "../../support/e2e/screenshots";

const { company, pricing } = siteConfig;
const { trialDays, reminderGraceDays, retryEveryDays, refundWithinDays, changeOfMindDays } = MEMBERSHIP_TERMS;

/** The numbers of the page's numbered section headings, in document order. */
async function sectionNumbers(page: Page) {
  const headings = await page.getByRole("main").locator("section > h2").allTextContents();
  return headings
    .map((text) => /^(\d+)\. \S/.exec(text)?.[1])
    .filter(Boolean)
    .map(Number);
}

async function expectOneH1(page: Page, title: string) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
}

test("the terms have 15 numbered sections, a table of contents and the model withdrawal form", async ({
  page,
}, testInfo) => {
  await page.goto("/terms");
  await expect(page).toHaveTitle(`Terms and Conditions | ${company.name}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /14-day right/);
  await expectOneH1(page, "Terms and Conditions");
  await expect(page.getByText("Last updated 21 March 2025")).toBeVisible();

  expect(await sectionNumbers(page)).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));

  const contents = page.getByRole("navigation", { name: "Contents" });
  const contentLinks = contents.getByRole("link");
  await expect(contentLinks).toHaveCount(16);
  for (const href of await contentLinks.evaluateAll((links) => links.map((link) => link.getAttribute("href")))) {
    await expect(page.locator(`section${href}`), `${href} is a section`).toHaveCount(1);
  }
  await contents.getByRole("link", { name: "Governing law and disputes" }).click();
  await expect(page).toHaveURL(/\/terms#governing-law$/);
  const governingLaw = page.getByRole("region", { name: "15. Governing law and disputes" });
  await expect(governingLaw).toBeInViewport();
  await expect(governingLaw).toContainText("governed by Dutch law");
  await expect(governingLaw).toContainText("court in Amsterdam");

  const main = page.getByRole("main");
  await expect(main).toContainText(`provided by ${company.legalName}`);
  await expect(main.getByRole("link", { name: company.email }).first()).toHaveAttribute(
    "href",
    `mailto:${company.email}`,
  );
  await expect(main.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  for (const text of [
    `${trialDays}-day free trial`,
    `within ${changeOfMindDays} days`,
    `within ${refundWithinDays} days`,
    "1 day of payment",
    `${reminderGraceDays} days to pay`,
    `try your card again every ${retryEveryDays} days`,
    "its last 4 digits and the payment provider’s reference to it",
  ]) {
    await expect(main, text).toContainText(text);
  }
  const cancelling = page.getByRole("region", { name: "10. Cancelling your membership" });
  await expect(cancelling.getByRole("link", { name: "Unsubscribe" })).toHaveAttribute("href", "/unsubscribe");
  await expect(cancelling).toContainText(
    "If you cancel during your first paid period, your cancellation takes effect at the end of that period",
  );
  const plans = page.getByRole("region", { name: "4. Plans and prices" });
  for (const plan of [pricing.medium, pricing.premium]) {
    await expect(plans).toContainText(`${plan.name}: ${formatPrice(plan.price, "USD")}, every 3 months`);
  }

  const withdrawal = page.getByRole("region", { name: `9. Your ${changeOfMindDays}-day right of withdrawal` });
  await expect(withdrawal.getByRole("link", { name: "withdrawal function" })).toHaveAttribute("href", WITHDRAW_PATH);
  for (const text of [
    `within ${changeOfMindDays} days of the day you receive our confirmation e-mail`,
    "you pay only for the time your membership ran after that charge",
    "refunded in full if you withdraw before your flight day",
    "you can no longer withdraw from it",
    `within ${refundWithinDays} days of the day we receive your withdrawal, to the card you paid with`,
  ]) {
    await expect(withdrawal, text).toContainText(text);
  }
  await expect(cancelling).toContainText("never have to give more than one month's notice");

  const model = modelWithdrawalForm();
  const form = page.getByRole("region", { name: model.title });
  await expect(form).toHaveAttribute("id", "cancellation-form");
  await expect(form.getByTestId("cancellation-form")).toContainText(
    `To: ${company.legalName}, ${company.address}, ${company.email}`,
  );
  for (const field of [model.notice, ...model.blanks, model.footnote]) {
    await expect(form, field).toContainText(field);
  }
  await expect(form.getByRole("link", { name: new RegExp(`${WITHDRAW_PATH}$`) })).toHaveAttribute(
    "href",
    WITHDRAW_PATH,
  );
  await screenshots(page, "terms", testInfo);
});

test("the subscription terms state the trial, the quarterly fees, reminders and refunds", async ({
  page,
}, testInfo) => {
  await page.goto("/subscription-terms");
  await expect(page).toHaveTitle(`Subscription Terms | ${company.name}`);
  await expectOneH1(page, "Subscription Terms");
  const main = page.getByRole("main");
  await expect(main).toContainText(`${trialDays}-day free trial`);
  for (const plan of [pricing.medium, pricing.premium]) {
    await expect(main).toContainText(`${plan.name}: ${formatPrice(plan.price, "USD")} every 3 months`);
  }
  await expect(main).toContainText(`You then have ${reminderGraceDays} days to pay`);
  await expect(main).toContainText(`We refund to the card you paid with within ${refundWithinDays} days`);
  await expect(main).toContainText(`If you cancel online before the trial ends, you pay nothing at all`);
  await expect(main.getByRole("link", { name: "withdrawal function" })).toHaveAttribute("href", WITHDRAW_PATH);
  await expect(main).toContainText("never the card number or security code");
  // The name the payment page gives, in the networks' letters.
  await expect(main).toContainText(`Charges appear on your bank statement under the name ${STATEMENT_DESCRIPTOR},`);
  await screenshots(page, "subscription-terms", testInfo);
  await main.getByRole("link", { name: "model withdrawal form" }).click();
  await expect(page).toHaveURL(/\/terms#cancellation-form$/);
  await expect(page.getByRole("region", { name: modelWithdrawalForm().title })).toBeInViewport();
});

test("the privacy policy names the controller and the retention periods the system applies", async ({
  page,
}, testInfo) => {
  await page.goto("/privacy");
  await expect(page).toHaveTitle(`Privacy Policy | ${company.name}`);
  await expectOneH1(page, "Privacy Policy");
  await expect(page.getByText("Last updated 21 March 2025")).toBeVisible();
  expect(await sectionNumbers(page)).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));

  const controller = page.getByRole("region", { name: "1. Who is responsible for your data" });
  await expect(controller).toContainText(`${company.legalName}, ${company.address}`);
  await expect(controller.getByRole("link", { name: company.email })).toHaveAttribute(
    "href",
    `mailto:${company.email}`,
  );

  const retention = page.getByRole("region", { name: "How long we keep your data" });
  await expect(retention).toContainText(`within ${formatPeriod(RETENTION.unpaidOrderHours, "hour")}`);
  await expect(retention).toContainText(`${formatPeriod(RETENTION.customerDataYears, "year")} after your last order`);
  await expect(retention).toContainText(`Kept for ${formatPeriod(RETENTION.contactMessageYears, "year")}`);
  await expect(retention).toContainText(`Kept for ${formatPeriod(RETENTION.unsubscribeRequestYears, "year")}`);
  await expect(retention).toContainText(`at most ${formatPeriod(RETENTION.rateLimitCounterHours, "hour")}`);
  await expect(page.getByRole("region", { name: "How to exercise your rights" })).toContainText(
    `within ${formatPeriod(RETENTION.dataRequestResponseMonths, "month")} of receiving it`,
  );

  const main = page.getByRole("main");
  await expect(main).toContainText("Card numbers and security codes (CVV) are never stored");
  await expect(main).toContainText("Membership details:");
  await expect(retention).toContainText(
    `Kept while it runs and for ${formatPeriod(RETENTION.customerDataYears, "year")} after it ends`,
  );
  await expect(main).toContainText("no tracking, analytics or advertising cookies");
  await expect(main).toContainText("Your request to start at once:");
  await expect(main).toContainText("Withdrawals: when you withdraw from a contract");
  await expect(page.getByRole("region", { name: "Why we use your data, and our legal bases" })).toContainText(
    "out your withdrawals, as consumer law requires of us. Legal basis: a legal obligation (article 6(1)(c))",
  );
  await expect(retention).toContainText("Your consent and your withdrawals");
  await expect(main.getByRole("link", { name: "Autoriteit Persoonsgegevens" })).toHaveAttribute(
    "href",
    /autoriteitpersoonsgegevens\.nl/,
  );
  await screenshots(page, "privacy", testInfo);
});

test("the footer leads to the withdrawal function and to cancelling a membership, on every width", async ({
  page,
}, testInfo) => {
  await page.goto("/terms");
  const legal = page.getByRole("contentinfo").getByRole("navigation", { name: "Legal" });
  await expect(legal.getByRole("link", { name: "Withdraw from contract here" })).toHaveAttribute("href", WITHDRAW_PATH);
  await expect(legal.getByRole("link", { name: "Cancel membership" })).toHaveAttribute("href", "/unsubscribe");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("contentinfo").screenshot({ path: testInfo.outputPath(`footer-${width}.png`) });
  }
  await legal.getByRole("link", { name: "Cancel membership" }).click();
  await expect(page).toHaveURL("/unsubscribe");
});

const FAQ_QUESTIONS = [
  "How does the membership work?",
  "When does my membership start?",
  "Does my membership renew automatically?",
  "Can I cancel at any time?",
  "Is there a limit to how often I can use the services?",
];

test("the FAQ answers its five questions on demand, with prices in the visitor's currency", async ({ page }) => {
  await page.context().addCookies([{ name: "currency", value: "EUR", url: "http://127.0.0.1" }]);
  await page.goto("/faq");
  await expect(page).toHaveTitle(`Frequently Asked Questions | ${company.name}`);
  await expectOneH1(page, "Frequently Asked Questions");
  await expect(page.getByRole("main").locator("summary")).toHaveText(FAQ_QUESTIONS);

  const renewal = page.getByRole("main").locator("details", { hasText: "Does my membership renew automatically?" });
  const answer = renewal.getByText("renews automatically every 3 months");
  await expect(answer).toBeHidden();
  await renewal.locator("summary").click();
  await expect(answer).toBeVisible();
  await expect(answer).toContainText(
    `${pricing.premium.name} plan renews at ${formatPrice(pricing.premium.price, "EUR")}`,
  );
  await renewal.locator("summary").click();
  await expect(answer).toBeHidden();

  const start = page.getByRole("main").locator("details", { hasText: "When does my membership start?" });
  await start.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(start.getByText("Immediately after you sign up")).toBeVisible();

  const box = page.getByRole("region", { name: "Still have questions?" });
  await expect(box.getByRole("link", { name: "Contact us" })).toHaveAttribute("href", "/contact");
  await expect(box.getByRole("link", { name: company.phone })).toHaveAttribute("href", /^tel:\+?\d+$/);
  await expect(box.getByRole("link", { name: company.email })).toHaveAttribute("href", `mailto:${company.email}`);
  await box.getByRole("link", { name: "Contact us" }).click();
  await expect(page).toHaveURL("/contact");
});

test("the FAQ opens its answers with JavaScript off", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/faq");
  const limits = page
    .getByRole("main")
    .locator("details", { hasText: "Is there a limit to how often I can use the services?" });
  const answer = limits.getByText("Attraction discounts can also extend to the companions");
  await expect(answer).toBeHidden();
  await limits.locator("summary").click();
  await expect(answer).toBeVisible();
  await expect(limits.getByText("Most services can be used as often as you like")).toContainText(
    `${pricing.medium.name} plan includes ${pricing.medium.freeFastTracksPerMonth} free fast-track accesses per calendar month and the ${pricing.premium.name} plan ${pricing.premium.freeFastTracksPerMonth}, one per passenger, from your first paid quarter`,
  );
  await context.close();
});

test("the legal and help pages have no serious accessibility violations", async ({ page }) => {
  for (const path of ["/terms", "/subscription-terms", "/privacy", "/faq"]) {
    await page.goto(path);
    expect(await seriousA11yViolations(page), path).toEqual([]);
  }
  await page.getByRole("main").locator("summary").first().click();
  expect(await seriousA11yViolations(page), "/faq with an answer open").toEqual([]);
});

test("the legal pages work at phone width without horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/terms", "/subscription-terms", "/privacy", "/faq"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

/** How far the section is from where a link to it should put it: at the top, below its scroll margin. */
async function distanceFromItsPlace(page: Page, id: string) {
  return page.locator(`section#${id}`).evaluate((section) => {
    const margin = parseFloat(getComputedStyle(section).scrollMarginTop);
    return Math.round(section.getBoundingClientRect().top - margin);
  });
}

test.describe("links to a section of a legal text", () => {
  // With the motion readers get: a smooth scroll that must end on the section.
  test.use({ reducedMotion: "no-preference" });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`put it at the top of a ${viewport.width} px wide screen`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/terms");
      await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Payment" }).click();
      await expect(page).toHaveURL(/#payment$/);
      await expect.poll(() => distanceFromItsPlace(page, "payment")).toBe(0);

      await page.goto("/subscription-terms");
      await page.getByRole("main").getByRole("link", { name: "model withdrawal form" }).click();
      await expect(page).toHaveURL(/\/terms#cancellation-form$/);
      await expect.poll(() => distanceFromItsPlace(page, "cancellation-form")).toBe(0);

      await page.goto("/privacy#retention");
      await expect.poll(() => distanceFromItsPlace(page, "retention")).toBe(0);
    });
  }
});

test("links to a section jump without scrolling smoothly for a reader who asks for less motion", async ({ page }) => {
  const scrollBehavior = () => page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/terms");
  expect(await scrollBehavior()).toBe("auto");
  await page.emulateMedia({ reducedMotion: "no-preference" });
  expect(await scrollBehavior()).toBe("smooth");
});
