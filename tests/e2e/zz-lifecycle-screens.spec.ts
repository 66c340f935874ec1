import { bookAndPay, bookAndReachPayment, chooseEuros } from "../support/e2e/booking-form";
import { signInAsNewAdmin } from "../support/e2e/auth-page";
import { test, uniqueEmail } from "../support/e2e/fixtures";

const out = "test-results/lifecycle-screens";

test("payment page screens", async ({ page }) => {
  const email = uniqueEmail("screens");
  await chooseEuros(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await bookAndReachPayment(page, { email: `${width}-${email}` });
    await page.screenshot({ path: `${out}/payment-trial-${width}.png`, fullPage: true });
  }
  await bookAndPay(page, { email });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await bookAndReachPayment(page, { email });
    await page.screenshot({ path: `${out}/payment-no-trial-${width}.png`, fullPage: true });
  }
});

test("admin emails screens", async ({ page }) => {
  test.slow();
  await signInAsNewAdmin(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/emails");
    for (const id of ["trial-started", "first-charge-coming", "membership-receipt", "payment-failed", "membership-cancelled", "refund-issued"]) {
      await page.locator(`section#${id}`).screenshot({ path: `${out}/admin-emails-${id}-${width}.png` });
    }
  }
});
