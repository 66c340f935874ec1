import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { bookAndReachPayment, consentBox, payWith } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { expect, test, waitForMail } from "../../support/e2e/fixtures";
import { screenshots } from "../../support/e2e/screenshots";
import { companyDay as day } from "../../support/e2e/company-day";

const CONSENT_REQUIRED = "Please tick the box to ask for your order to start now";

function traveller() {
  const id = randomUUID().slice(0, 8);
  return { firstName: "Sanne", lastName: `de Vries-${id}`, email: `sanne.${id}@example.com` };
}

async function orderOf(email: string) {
  const { rows } = await e2eDatabase().query<{
    id: string;
    status: string;
    consent_wording: string | null;
    consented_at: Date | null;
    payments: string;
  }>(
    `select o.id, o.status, o.consent_wording, o.consented_at,
       (select count(*) from payments p where p.order_id = o.id) as payments
     from orders o join customers c on c.id = o.customer_id where c.email = $1`,
    [email],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Checks what the confirmation e-mail and the database say once `email`'s first order is paid. */
async function expectContractConfirmed(email: string) {
  const order = await orderOf(email);
  expect(order.status).toBe("paid");
  expect(order.consent_wording).toMatch(/^I ask for my Fast Track and my membership's free trial to start now/);
  expect(order.consented_at).not.toBeNull();
  const { rows } = await e2eDatabase().query<{ trial_ends_at: Date }>(
    "select trial_ends_at from memberships where order_id = $1",
    [order.id],
  );
  const firstCharge = day(rows[0]!.trial_ends_at);
  const mail = await waitForMail(email, { subject: /^Your Fast Track booking .+ is confirmed$/ });
  expect(mail.text).toContain(`First charge: $49 on ${firstCharge}`);
  expect(mail.text).toContain("Model withdrawal form");
  expect(mail.text).toContain("Jetlane Travel Services B.V., Herengracht 420");
  expect(mail.text).toMatch(/https?:\/\/\S+\/withdraw/);
  expect(mail.attachments.map((attachment) => attachment.filename)).toContain("terms-and-conditions.html");
}

async function expectTermsAboveButton(page: Page) {
  const total = (await page.getByTestId("checkout-total").textContent())!;
  const button = page.getByRole("button", { name: `FINISH – pay ${total} now` });
  await expect(button).toBeVisible();
  const terms = page.getByTestId("order-terms");
  await expect(terms).toContainText("Fast Track for 2 adults and 1 child at Paris Orly - ORY on");
  await expect(terms).toContainText(`Total now: ${total}`);
  const firstCharge = day(new Date(Date.now() + 3 * 24 * 3600 * 1000));
  await expect(terms).toContainText(
    `then $49 every 3 months from ${firstCharge}, unless you cancel before ${firstCharge}; cancel anytime online.`,
  );
  await expect(terms.getByRole("link", { name: "Terms and Conditions" })).toHaveAttribute("href", "/terms");
  await expect(terms.getByRole("link", { name: "Subscription Terms" })).toHaveAttribute("href", "/subscription-terms");
  await expect(consentBox(page)).not.toBeChecked();
  // The terms stand between the box and the button, right above the button.
  const termsBox = (await terms.boundingBox())!;
  const buttonBox = (await button.boundingBox())!;
  expect(buttonBox.y - (termsBox.y + termsBox.height)).toBeLessThan(40);
}

test.describe("the order button and the consent, as the Consumer Rights Directive asks", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.use({ allowedHttpErrors: [400] });

  test("with JavaScript: the button names the amount, no box no payment, the e-mail carries the contract", async ({
    page,
  }, testInfo) => {
    const person = traveller();
    await bookAndReachPayment(page, person);
    await expectTermsAboveButton(page);
    await screenshots(page, "checkout-terms", testInfo);

    await page.getByLabel("Card Number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry Month").selectOption("06");
    await page.getByLabel("Expiry Year").selectOption(String(new Date().getFullYear() + 2));
    await page.getByLabel("CVV").fill("123");
    await page.getByRole("button", { name: /^FINISH/ }).click();
    await expect(page.getByText(CONSENT_REQUIRED)).toBeVisible();
    expect(await orderOf(person.email)).toMatchObject({ status: "not_paid", payments: "0", consent_wording: null });

    await consentBox(page).check();
    await page.getByRole("button", { name: /^FINISH/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await expectContractConfirmed(person.email);
  });

  test("without JavaScript: the server refuses the payment without the box, then takes it", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const person = traveller();
    await bookAndReachPayment(page, person);
    await expectTermsAboveButton(page);

    await page.getByLabel("Card Number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry Month").selectOption("06");
    await page.getByLabel("Expiry Year").selectOption(String(new Date().getFullYear() + 2));
    await page.getByLabel("CVV").fill("123");
    const refused = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: /^FINISH/ }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByText(CONSENT_REQUIRED)).toBeVisible();
    expect(await orderOf(person.email)).toMatchObject({ status: "not_paid", payments: "0" });

    await payWith(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await expectContractConfirmed(person.email);
    await context.close();
  });
});
