import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { chooseEuros, thisYear } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { clientAddressFor, expect, screenshots, test, waitForMail } from "../../support/e2e/fixtures";
import { companyDay as day } from "../../support/e2e/company-day";

const HAD_TRIAL =
  "This e-mail address has already had its free trial: each address gets one. Sign in to your account to see your membership.";

async function fillDetails(page: Page, { fullName, email }: { fullName: string; email: string }) {
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

async function fillCard(page: Page, cardNumber: string) {
  await page.getByLabel("Card Number").fill(cardNumber);
  await page.getByLabel("Expiry Month").selectOption("06");
  await page.getByLabel("Expiry Year").selectOption(String(thisYear + 2));
  await page.getByLabel("CVV").fill("123");
  await page.getByRole("checkbox", { name: /^I ask for my .+ membership's free trial to start now/ }).check();
}

test.describe("the membership checkout", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.slow();

  test("Premium from /pre-checkout: a new tab, the details, the card kept and not charged, the contract e-mail, the back office's Premium trial", async ({
    page,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const member = { fullName: `Lotte de Wit ${id}`, email: `lotte.${id}@example.com` };
    await chooseEuros(page);
    await page.goto("/pre-checkout?plan=premium");
    const popup = page.waitForEvent("popup");
    await page.getByRole("tabpanel").getByRole("link", { name: "Start Free Trial" }).click();
    const checkout = await popup;
    await checkout.waitForLoadState();
    expect(new URL(checkout.url()).search).toBe("?plan=premium&currency=EUR");
    await expect(checkout.getByRole("heading", { level: 1 })).toHaveText("Start your free trial");
    const plan = checkout.getByRole("complementary", { name: "Your plan" });
    await expect(plan).toContainText("Premium");
    await expect(plan).toContainText("€79 every 3 months");
    await expect(plan).toContainText("Due today€0");
    await screenshots(checkout, "membership-checkout-details", testInfo);

    await fillDetails(checkout, member);
    await expect(checkout.getByLabel("Card Number")).toBeVisible();
    await expect(checkout.getByLabel("Email")).toHaveValue(member.email);
    await expect(checkout.getByTestId("order-terms")).toContainText("Total now: €0");
    await fillCard(checkout, "4242 4242 4242 4242");
    await screenshots(checkout, "membership-checkout-card", testInfo);
    await checkout.getByRole("button", { name: "Start free trial – then €79 every 3 months" }).click();

    await expect(checkout.getByRole("heading", { level: 1 })).toHaveText("Your free trial has started");
    await expect(checkout.getByText(`a confirmation e-mail is on its way to ${member.email}`)).toBeVisible();
    await screenshots(checkout, "membership-checkout-started", testInfo);

    const { rows } = await e2eDatabase().query<{
      id: string;
      plan: string;
      currency: string;
      price: number;
      status: string;
      order_id: string | null;
      trial_ends_at: Date;
      consent_wording: string;
      card_last4: string;
      full_name: string;
    }>(
      `select m.id, m.plan, m.currency, m.price, m.status, m.order_id, m.trial_ends_at, m.consent_wording,
         m.card_last4, c.full_name
       from memberships m join customers c on c.id = m.customer_id where m.email = $1`,
      [member.email],
    );
    expect(rows).toHaveLength(1);
    const membership = rows[0]!;
    expect(membership).toMatchObject({
      plan: "premium",
      currency: "EUR",
      price: 7900,
      status: "trialing",
      order_id: null,
      card_last4: "4242",
      full_name: member.fullName,
    });
    expect(membership.consent_wording).toMatch(/^I ask for my Premium membership's free trial to start now/);
    await expect(checkout.getByText(`free until ${day(membership.trial_ends_at, "en-GB")}`)).toBeVisible();

    const contract = await waitForMail(member.email, { subject: /free trial of .+ Premium has started$/ });
    for (const text of [
      `€79 on ${day(membership.trial_ends_at, "en-GB")}, to your Visa ending 4242`,
      "Your right to withdraw",
      membership.consent_wording,
      "Model withdrawal form",
    ]) {
      expect(contract.text).toContain(text);
    }
    expect(contract.attachments.map((file) => file.filename)).toContain("terms-and-conditions.html");

    await signInAsNewAdmin(page);
    await page.goto(`/admin/memberships?q=${encodeURIComponent(member.email)}`);
    const results = page.getByRole("region", { name: "Abonnements" });
    await expect(results.getByRole("row")).toHaveCount(2);
    await expect(results).toContainText("Premium");
    await expect(results).toContainText("Essai");
    // The dashboard counts the trials per plan: this one at least on Premium.
    await page.goto("/admin");
    await expect(page.getByTestId("plans-trialing")).toContainText(/Premium [1-9]/);
  });

  test("without JavaScript: Medium by its product code, a declined card, then one trial per address said before the card", async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const page = await context.newPage();
    const id = randomUUID().slice(0, 8);
    const member = { fullName: `Sem Bakker ${id}`, email: `sem.${id}@example.com` };

    await page.goto("/membership-checkout?currency=GBP&product=_3m_49");
    await expect(page.getByRole("complementary", { name: "Your plan" })).toContainText("£49 every 3 months");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Full name is required")).toBeVisible();

    await fillDetails(page, member);
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Start free trial – then £49 every 3 months" }).click();
    await expect(page.getByRole("alert")).toContainText("Your card was declined.");
    const none = await e2eDatabase().query("select 1 from memberships where email = $1", [member.email]);
    expect(none.rowCount).toBe(0);

    // The form is back with the details kept and the card emptied; another card starts the trial.
    await expect(page.getByLabel("Email")).toHaveValue(member.email);
    await expect(page.getByLabel("Card Number")).toHaveValue("");
    await fillCard(page, "5555 5555 5555 4444");
    await page.getByRole("button", { name: "Start free trial – then £49 every 3 months" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your free trial has started");
    const membershipNumber = (await page.getByTestId("membership-number").textContent())!.trim();
    expect(membershipNumber).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);
    const started = await e2eDatabase().query<{ plan: string; price: number; currency: string }>(
      "select plan, price, currency from memberships where email = $1",
      [member.email],
    );
    expect(started.rows).toEqual([{ plan: "medium", price: 4900, currency: "GBP" }]);

    // The same address again: told at the first step, before any card is asked for.
    await page.goto("/membership-checkout?plan=premium&currency=GBP");
    await fillDetails(page, { ...member, email: member.email.toUpperCase() });
    await expect(page.getByRole("alert")).toContainText(HAD_TRIAL);
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
    await screenshots(page, "membership-checkout-had-trial", testInfo);

    // The number the confirmation gave is the contract's at /withdraw: the trial ends at once.
    await page.goto(`/withdraw`);
    await page.getByLabel("Full name").fill(member.fullName);
    await page.getByLabel("Order or membership number").fill(membershipNumber);
    await page.getByLabel("E-mail address").fill(member.email);
    await page.getByLabel("My membership").check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Confirm withdrawal" }).click();
    await expect(page.getByRole("status").filter({ hasText: "We received your withdrawal" })).toBeVisible();
    const ended = await e2eDatabase().query<{ status: string }>("select status from memberships where email = $1", [
      member.email,
    ]);
    expect(ended.rows).toEqual([{ status: "cancelled" }]);
    await context.close();
  });
});
