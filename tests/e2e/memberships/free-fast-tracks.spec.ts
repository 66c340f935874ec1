import { randomUUID } from "node:crypto";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { endTrialAndBill } from "../../support/e2e/billing";
import { bookAndPay, consentBox, isoDay, PAYMENT_URL, payWith } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { cardOf, expect, screenshots, test, waitForMail } from "../../support/e2e/fixtures";
import { signInWithMailedCode } from "../../support/e2e/member-sign-in";
import type { Page } from "@playwright/test";

const LEFT = (count: number) => new RegExp(`^${count} of 2 free accesses left in [A-Z][a-z]+$`);

/** From the account's button to the payment page: the form comes filled with the member's details. */
async function bookFromAccount(
  page: Page,
  person: { firstName: string; lastName: string; email: string },
  adults: string,
) {
  await page.goto("/account");
  await page.getByRole("link", { name: "Book a fast track" }).click();
  await expect(page.getByLabel("First Name")).toHaveValue(person.firstName);
  await expect(page.getByLabel("Last Name")).toHaveValue(person.lastName);
  await expect(page.getByLabel("Email")).toHaveValue(person.email);
  await page.getByLabel("Airport").selectOption("Paris Orly - ORY");
  await page.getByLabel("Flight Date").fill(isoDay(1, 15));
  await page.getByLabel("Adults").selectOption(adults);
  await page.getByLabel("Children").selectOption("0");
}

async function continueToPayment(page: Page) {
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(PAYMENT_URL);
  return new URL(page.url()).pathname.split("/").pop()!;
}

test.describe("a member's free fast-track accesses", () => {
  test.slow();
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);

  test("in a paid quarter: 3 passengers on 2 free accesses pay for 1, the next booking pays for all, a refund gives them back, a free booking needs no card", async ({
    page,
    browser,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const person = { firstName: "Noor", lastName: `Visser-${id}`, email: `noor.${id}@example.com` };
    const { orderId: firstOrder } = await bookAndPay(page, person);
    await endTrialAndBill(firstOrder);
    await signInWithMailedCode(page, person.email);
    await expect(page.getByTestId("free-accesses")).toHaveText(LEFT(2));
    await screenshots(page, "account-free-accesses", testInfo);

    // Three passengers, two free: the total counts one.
    await bookFromAccount(page, person, "3");
    await expect(page.getByTestId("free-accesses")).toHaveText(LEFT(2));
    await expect(page.getByTestId("booking-total")).toHaveText("$11");
    await screenshots(page, "booking-form-member", testInfo);
    const partlyFree = await continueToPayment(page);
    const terms = page.getByTestId("order-terms");
    await expect(terms).toContainText("Fast Track for 3 adults");
    await expect(terms).toContainText("2 of them on your membership's free accesses.");
    await expect(terms).toContainText(/Total now: \$11(?![\d.])/);
    await payWith(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await page.goto("/account");
    await expect(page.getByTestId("free-accesses")).toHaveText(LEFT(0));

    // None left: the next booking is priced in full.
    await bookFromAccount(page, person, "2");
    await expect(page.getByTestId("booking-total")).toHaveText("$22");
    await continueToPayment(page);
    await expect(page.getByTestId("order-terms")).toContainText(/Total now: \$22(?![\d.])/);
    await expect(page.getByTestId("order-terms")).not.toContainText("free accesses");

    // The admin refunds the first booking in full: its two accesses come back.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAsNewAdmin(admin);
    await admin.goto(`/admin/orders/${partlyFree}`);
    await expect(admin.getByLabel("Montant à rembourser (USD)")).toHaveValue("11,00");
    await admin.getByLabel("Motif").fill("Vol annulé");
    await admin.getByRole("button", { name: "Rembourser" }).click();
    await admin.getByRole("button", { name: "Oui, tout rembourser" }).click();
    await expect(cardOf(admin, "Statut")).toContainText("Remboursée");
    await adminContext.close();
    await page.goto("/account");
    await expect(page.getByTestId("free-accesses")).toHaveText(LEFT(2));

    // One passenger on a free access: nothing to pay, no card asked, the consent still is.
    await bookFromAccount(page, person, "1");
    await expect(page.getByTestId("booking-total")).toHaveText("$0");
    const free = await continueToPayment(page);
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
    await expect(page.getByTestId("order-terms")).toContainText("All on your membership's free accesses.");
    await expect(page.getByTestId("order-terms")).toContainText(/Total now: \$0(?![\d.])/);
    await screenshots(page, "free-booking-confirm", testInfo);
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page.getByText(/Please tick the box/).first()).toBeVisible();
    await consentBox(page).check();
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await screenshots(page, "free-booking-confirmed", testInfo);
    const { rows } = await e2eDatabase().query<{
      status: string;
      amount: number;
      free_accesses: number;
      payments: string;
    }>(
      `select status, amount, free_accesses, (select count(*) from payments where order_id = orders.id) as payments
         from orders where id = $1`,
      [free],
    );
    expect(rows).toEqual([{ status: "paid", amount: 0, free_accesses: 1, payments: "0" }]);
    const number = (
      await e2eDatabase().query<{ n: string }>("select order_number as n from orders where id = $1", [free])
    ).rows[0]!.n;
    const mail = await waitForMail(person.email, { subject: new RegExp(`${number} is confirmed$`) });
    expect(mail.text).toContain(number);
    await page.goto("/account");
    await expect(page.getByTestId("free-accesses")).toHaveText(LEFT(1));
  });
});
