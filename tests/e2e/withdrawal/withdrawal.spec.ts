import { randomUUID } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { bookAndPay } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import {
  cardOf,
  clientAddressFor,
  expect,
  mailsTo,
  seriousA11yViolations,
  test,
  waitForMail,
} from "../../support/e2e/fixtures";
import { screenshots } from "../../support/e2e/screenshots";

interface Details {
  fullName: string;
  contractNumber: string;
  email: string;
}

/** The receipt's words, whatever matched: only the time of receipt and the address typed differ. */
const RECEIPT_SHAPE =
  "Withdrawal received We received your withdrawal on DAY at TIME (Amsterdam time). If the details match one of our contracts, we have e-mailed an acknowledgement to ADDRESS, saying what your withdrawal changes and what we refund. If it does not arrive within a few minutes, contact our customer service at support@jetlane.example or +31 20 808 4100. Return to Home";

function receiptShape(receipt: string, email: string) {
  return receipt
    .replace(/ on \d{1,2} \w+ \d{4} at \d{2}:\d{2} /, " on DAY at TIME ")
    .replace(email, "ADDRESS")
    .replace(/\s+/g, " ")
    .trim();
}

const RECEIVED = /We received your withdrawal on (\d{1,2} \w+ \d{4}) at (\d{2}:\d{2}) \(Amsterdam time\)\./;

/**
 * Fills in /withdraw, reviews and confirms, as a consumer would: returns the receipt's text. With
 * `shots`, screenshots each step.
 */
async function withdraw(page: Page, details: Details, shots?: TestInfo) {
  await page.goto("/withdraw");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Withdraw from contract here");
  await expect(page.getByText(/within 14 days of your confirmation e-mail, without giving a reason/)).toBeVisible();
  await page.getByLabel("Full name").fill(details.fullName);
  await page.getByLabel("Order or membership number").fill(details.contractNumber);
  await page.getByLabel("E-mail address").fill(details.email);
  await page.getByRole("group", { name: "What do you withdraw from?" }).getByLabel("Both").check();
  if (shots) {
    expect(await seriousA11yViolations(page), "the form").toEqual([]);
    await screenshots(page, "withdraw-form", shots);
  }
  await page.getByRole("button", { name: "Continue" }).click();

  const review = cardOf(page, "Check and confirm");
  await expect(review).toContainText(details.contractNumber);
  await expect(review).toContainText(details.email);
  await expect(review).toContainText(/Withdraw from\s*Both/);
  await expect(review).toContainText("Nothing happens until you press Confirm withdrawal.");
  if (shots) {
    expect(await seriousA11yViolations(page), "the review step").toEqual([]);
    await screenshots(page, "withdraw-review", shots);
  }
  await page.getByRole("button", { name: "Confirm withdrawal" }).click();

  const receipt = page.getByRole("status").filter({ hasText: "We received your withdrawal" });
  await expect(receipt).toHaveText(RECEIVED);
  if (shots) {
    expect(await seriousA11yViolations(page), "the receipt").toEqual([]);
    await screenshots(page, "withdraw-receipt", shots);
  }
  return cardOf(page, "Withdrawal received").innerText();
}

async function membershipAndRefunds(orderId: string) {
  const db = e2eDatabase();
  const { rows: members } = await db.query<{ status: string }>("select status from memberships where order_id = $1", [
    orderId,
  ]);
  const { rows: refunds } = await db.query<{ amount: number }>("select amount from refunds where order_id = $1", [
    orderId,
  ]);
  const { rows: orders } = await db.query<{ amount: number; status: string }>(
    "select amount, status from orders where id = $1",
    [orderId],
  );
  return { membership: members[0], refunds, order: orders[0]! };
}

/** Books and pays a first fast track a month ahead as a new address: a trial starts. */
async function newCustomer(page: Page) {
  const id = randomUUID().slice(0, 8);
  const traveller = { firstName: "Sanne", lastName: `de Vries-${id}`, email: `sanne.${id}@example.com` };
  const { orderId, orderNumber } = await bookAndPay(page, traveller);
  return { ...traveller, fullName: `${traveller.firstName} ${traveller.lastName}`, orderId, orderNumber };
}

async function expectWithdrawn(customer: Awaited<ReturnType<typeof newCustomer>>, receipt: string) {
  const [, day, time] = RECEIVED.exec(receipt)!;
  const mail = await waitForMail(customer.email, { subject: /we received your withdrawal$/ });
  expect(mail.text).toContain(`on ${day} at ${time} (Amsterdam time)`);
  expect(mail.text).toContain(customer.orderNumber);
  expect(mail.text).toContain(`Your membership ended on ${day}.`);
  expect(mail.text).toContain(`Fast Track order ${customer.orderNumber}:`);
  const { membership, refunds, order } = await membershipAndRefunds(customer.orderId);
  expect(membership?.status).toBe("cancelled");
  expect(refunds.map((refund) => Number(refund.amount))).toEqual([Number(order.amount)]);
  expect(order.status).toBe("refunded");
}

test.describe("the withdrawal function", () => {
  // The checks read the server's database, which needs it on PostgreSQL.
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.slow();

  test("with JavaScript: a new customer withdraws; the membership ends, the fast track is refunded, the e-mail says when", async ({
    page,
  }, testInfo) => {
    const customer = await newCustomer(page);
    const receipt = await withdraw(
      page,
      { fullName: customer.fullName, contractNumber: customer.orderNumber, email: customer.email },
      testInfo,
    );
    expect(receiptShape(receipt, customer.email)).toBe(RECEIPT_SHAPE);
    await expectWithdrawn(customer, receipt);

    // The back office shows it on the order's page, in French.
    await signInAsNewAdmin(page);
    await page.goto(`/admin/orders/${customer.orderId}`);
    await expect(cardOf(page, "Rétractations")).toContainText("Rétractation appliquée");
    await expect(cardOf(page, "Rétractations")).toContainText(customer.fullName);
    await page.goto("/admin/withdrawals");
    await page.getByLabel("Recherche").fill(customer.orderNumber);
    await page.getByLabel("Résultat").selectOption({ label: "Rétractation appliquée" });
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(/[?&]outcome=withdrawn/);
    await expect(page.getByText(customer.orderNumber).first()).toBeVisible();
  });

  test("without JavaScript: the same three steps work as plain form posts", async ({ page, browser }, testInfo) => {
    const customer = await newCustomer(page);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const noScript = await context.newPage();
    // A first try with a typing mistake, sent back to be changed: nothing is recorded.
    await noScript.goto("/withdraw");
    await noScript.getByLabel("Full name").fill(customer.fullName);
    await noScript.getByLabel("Order or membership number").fill("FT-TYPO");
    await noScript.getByLabel("E-mail address").fill(customer.email);
    await noScript.getByLabel("My membership").check();
    await noScript.getByRole("button", { name: "Continue" }).click();
    await noScript.getByRole("button", { name: "Change details" }).click();
    await expect(noScript.getByLabel("Order or membership number")).toHaveValue("FT-TYPO");
    await expect(noScript.getByLabel("Full name")).toHaveValue(customer.fullName);

    const receipt = await withdraw(noScript, {
      fullName: customer.fullName,
      contractNumber: customer.orderNumber.toLowerCase(),
      email: customer.email.toUpperCase(),
    });
    await expectWithdrawn(customer, receipt);
    await context.close();
  });

  test("details that match nothing get the same answer, and no e-mail", async ({ page }) => {
    const id = randomUUID().slice(0, 8);
    const email = `nobody.${id}@example.com`;
    const receipt = await withdraw(page, { fullName: "No Body", contractNumber: `FT-0-${id}`, email });
    const { rows } = await e2eDatabase().query<{ outcome: string }>(
      "select outcome from withdrawals where email = $1",
      [email],
    );
    expect(rows.map((row) => row.outcome)).toEqual(["unmatched"]);
    // Word for word the page a match gets (the first test), but for the time and the address typed.
    expect(receiptShape(receipt, email)).toBe(RECEIPT_SHAPE);
    expect(await mailsTo(email)).toEqual([]);
  });
});
