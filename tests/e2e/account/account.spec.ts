import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Locator } from "@playwright/test";
import { endTrialAndBill } from "../../support/e2e/billing";
import { bookAndPay } from "../../support/e2e/booking-form";
import { e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { expect, screenshots, test, waitForMail } from "../../support/e2e/fixtures";
import { askForCode, codeOf, linkOf, signInWithMailedCode } from "../../support/e2e/member-sign-in";
import { pdfScreenshot, pdfText } from "../../support/pdf-text";

function traveller() {
  const id = randomUUID().slice(0, 8);
  return { firstName: "Ines", lastName: `Bakker-${id}`, email: `ines.${id}@example.com` };
}

async function fillCard(form: Locator, number: string) {
  await form.getByLabel("Card Number").fill(number);
  await form.getByLabel("Expiry Month").selectOption("12");
  await form.getByLabel("Expiry Year").selectOption({ index: 3 });
  await form.getByLabel("CVV").fill("123");
  await form.getByRole("button", { name: "Save this card" }).click();
}

test.describe("the member's own account", () => {
  test.slow();

  test("a guest who paid opens Login, signs in with the mailed code, and sees the trial and the booking's voucher", async ({
    page,
    context,
  }, testInfo) => {
    const person = traveller();
    const { orderNumber } = await bookAndPay(page, person);
    const confirmation = await waitForMail(person.email, { subject: new RegExp(`${orderNumber} is confirmed$`) });
    const shortCode = /[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2}/.exec(confirmation.text)?.[0];
    expect(shortCode, confirmation.text).toBeTruthy();

    // "Login", in a new tab as ever, leads to this site's member area on a fresh clone.
    await page.goto("/");
    const [memberArea] = await Promise.all([
      context.waitForEvent("page"),
      page
        .getByRole("link", { name: /^Login/ })
        .first()
        .click(),
    ]);
    await expect(memberArea).toHaveURL(/\/account\/sign-in$/);
    await expect(memberArea.getByRole("heading", { level: 1 })).toHaveText("Your account");
    await screenshots(memberArea, "account-sign-in", testInfo);

    await askForCode(memberArea, person.email);
    await expect(memberArea.getByText(`We have sent a sign-in code to ${person.email}`)).toBeVisible();
    await screenshots(memberArea, "account-sign-in-code", testInfo);
    const mail = await waitForMail(person.email, { subject: /sign-in code$/ });
    expect(mail.subject).not.toMatch(/\d{6}/);
    await memberArea.getByLabel("Sign-in code").fill(codeOf(mail));
    await memberArea.getByRole("button", { name: "Sign in" }).click();

    await expect(memberArea).toHaveURL(/\/account$/);
    await expect(memberArea.getByText(`Signed in as ${person.email}`)).toBeVisible();
    await expect(memberArea.getByTestId("membership-status")).toHaveText("Free trial");
    await expect(memberArea.getByTestId("membership-next")).toContainText("Your free trial ends on");
    await expect(memberArea.getByTestId("membership-next")).toContainText("$49");
    await expect(memberArea.getByRole("img", { name: "Membership card QR code" })).toBeVisible();
    await expect(memberArea.getByTestId("membership-number")).toHaveText(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);
    const booking = memberArea.getByTestId("account-booking");
    await expect(booking).toHaveCount(1);
    await expect(booking).toContainText(orderNumber);
    await expect(booking).toContainText("PAID");
    await expect(booking.getByTestId("voucher-short-code")).toHaveText(shortCode!);
    await expect(booking.getByRole("img", { name: `Voucher QR code for ${orderNumber}` })).toBeVisible();
    expect((await memberArea.request.get("/account")).headers()["cache-control"]).toBe("private, no-store");
    await screenshots(memberArea, "account", testInfo);

    // The booking's invoice, as a PDF with its number, the VAT it includes and the total.
    const invoice = memberArea.getByTestId("account-invoice");
    await expect(invoice).toHaveCount(1);
    const invoiceNumber = /Invoice (\d{4}-\d{6})/.exec((await invoice.textContent()) ?? "")?.[1];
    expect(invoiceNumber).toBeTruthy();
    await expect(booking).toContainText(invoiceNumber!);
    const [pdfDownload] = await Promise.all([
      memberArea.waitForEvent("download"),
      invoice.getByRole("link", { name: `Download invoice ${invoiceNumber} (PDF)` }).click(),
    ]);
    expect(pdfDownload.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
    const pdf = readFileSync(await pdfDownload.path());
    const text = pdfText(pdf);
    const total = (await invoice.getByTestId("invoice-total").textContent())!;
    for (const expected of [`No. ${invoiceNumber}`, `${person.firstName} ${person.lastName}`, "VAT 21%", total]) {
      expect(text).toContain(expected);
    }
    pdfScreenshot(pdf, testInfo.outputPath("account-invoice-pdf.png"));

    // Cancelling asks first, then says until when; the page shows it.
    const main = memberArea.getByRole("main");
    await main.getByRole("link", { name: "Cancel membership" }).click();
    const confirm = memberArea.getByRole("form", { name: "Cancel your Medium membership?" });
    await expect(confirm).toContainText("Your free trial ends on");
    await screenshots(memberArea, "account-cancel-confirm", testInfo);
    await confirm.getByRole("button", { name: "Yes, cancel my membership" }).click();
    await expect(memberArea.getByText("Your membership is cancelled").first()).toBeVisible();
    await expect(memberArea.getByTestId("membership-status")).toHaveText("Cancelled");
    await expect(main.getByRole("link", { name: "Cancel membership" })).toHaveCount(0);
    await waitForMail(person.email, { subject: /membership is cancelled$/ });

    // The data download is the person's own.
    const download = await memberArea.request.get("/account/data.json");
    expect(download.headers()["content-disposition"]).toBe('attachment; filename="my-data.json"');
    expect(await download.text()).toContain(orderNumber);

    // Signed in, the header offers the account; signing out closes it.
    await expect(memberArea.getByRole("link", { name: "My Account" }).first()).toBeVisible();
    await memberArea.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(memberArea.getByText("You are signed out")).toBeVisible();
    await memberArea.goto("/account");
    await expect(memberArea).toHaveURL(/\/account\/sign-in$/);
  });

  test.describe("a wrong code", () => {
    // The refused code is answered 400, which the browser reports in its console.
    test.use({ allowedHttpErrors: [400] });

    test("says so and signs no one in", async ({ page }) => {
      const email = traveller().email;
      await page.goto("/account/sign-in");
      await askForCode(page, email);
      const code = codeOf(await waitForMail(email, { subject: /sign-in code$/ }));
      await page.getByLabel("Sign-in code").fill(code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByText("This code is not right, or it has expired.").first()).toBeVisible();
      await page.goto("/account");
      await expect(page).toHaveURL(/\/account\/sign-in$/);
    });
  });
});

test.describe("a member whose renewal was declined", () => {
  test.slow();
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  // The bank's refusal of the fee is answered 402, which the browser reports in its console.
  test.use({ allowedHttpErrors: [402] });

  test("replaces the card, follows the payment reminder to the account, and pays the fee: active again, with a receipt", async ({
    page,
  }, testInfo) => {
    const person = traveller();
    const { orderId } = await bookAndPay(page, person);
    await signInWithMailedCode(page, person.email);

    // A card the bank refuses is not kept; the one whose renewals are declined (0346) is.
    await page.getByRole("link", { name: "Replace your card" }).click();
    const cardForm = page.getByRole("form", { name: "Replace your card" });
    await fillCard(cardForm, "4000 0000 0000 0002");
    await expect(page.getByText("Your card was declined.")).toBeVisible();
    await expect(cardForm.getByLabel("Card Number")).toHaveValue("");
    await screenshots(page, "account-replace-card-refused", testInfo);
    await fillCard(cardForm, "4999 9900 0000 0346");
    await expect(page.getByText("Your card is replaced").first()).toBeVisible();
    await expect(page.getByTestId("membership-next")).toContainText("Visa ending 0346");

    await endTrialAndBill(orderId, "open");
    const reminder = await waitForMail(person.email, { subject: /^Payment reminder/ });
    expect(reminder.text).toContain("replace the card and pay the fee at once");
    expect(linkOf(reminder, /\/account\/sign-in\?for=[\w-]+/)).toBeTruthy();
    await page.goto("/account");
    await expect(page.getByTestId("membership-status")).toHaveText("Payment due");
    await screenshots(page, "account-payment-due", testInfo);

    // The same card is refused again; a new one pays.
    await page.getByRole("button", { name: "Pay $49 now" }).click();
    await expect(page.getByText("Your card was not charged").first()).toBeVisible();
    await page.getByRole("link", { name: "Replace your card" }).click();
    await fillCard(cardForm, "4242 4242 4242 4242");
    await expect(page.getByText("Your card is replaced").first()).toBeVisible();
    await page.getByRole("button", { name: "Pay $49 now" }).click();
    await expect(page.getByText("Thank you: your fee is paid").first()).toBeVisible();
    await expect(page.getByTestId("membership-status")).toHaveText("Active");
    await expect(page.getByRole("button", { name: "Pay $49 now" })).toHaveCount(0);
    const receipt = await waitForMail(person.email, { subject: /^Receipt: \$49/ });
    const invoiceNumber = /Invoice number:?\s+(\d{4}-\d{6})/.exec(receipt.text)?.[1];
    expect(invoiceNumber, receipt.text).toBeTruthy();
    await expect(page.getByTestId("account-invoice").filter({ hasText: invoiceNumber! })).toContainText("$49.00");
  });
});

test.describe("the member's account without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test.slow();

  test("the trial e-mail's 'Manage your membership' fills in the address; the code mail's link, opened by a scanner first, still signs in; then a withdrawal", async ({
    page,
    request,
  }, testInfo) => {
    const person = traveller();
    await bookAndPay(page, person);
    const started = await waitForMail(person.email, { subject: /free trial of .+ has started$/ });
    const manage = linkOf(started, /\/account\/sign-in\?for=[\w-]+/);
    expect(manage).not.toContain(person.email.split("@")[0]);

    await page.goto(manage);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(person.email);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();

    const mail = await waitForMail(person.email, { subject: /sign-in code$/ });
    const link = linkOf(mail, /\/account\/sign-in\?link=[\w-]+/);
    // A mail scanner fetches the link: that fills in a form and uses nothing up.
    for (let scan = 0; scan < 2; scan++) expect((await request.get(link)).status()).toBe(200);

    await page.goto(link);
    await expect(page.getByLabel("Sign-in code")).toHaveValue(codeOf(mail));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("membership-status")).toHaveText("Free trial");
    const trialEnd = /Free until: (\d{1,2} \w+ \d{4})/.exec(started.text)?.[1];
    expect(trialEnd, started.text).toBeTruthy();
    await expect(page.getByTestId("membership-next")).toContainText(`Your free trial ends on ${trialEnd}`);

    // Changing one's mind: withdraw from the booking and its membership, without retyping anything.
    await page.getByRole("link", { name: "withdraw from this booking" }).click();
    const step = page.getByRole("form", { name: /^Withdraw from FT-/ });
    await expect(step.getByRole("radio", { name: "Both" })).toBeChecked();
    await screenshots(page, "account-withdraw-confirm", testInfo);
    await step.getByRole("button", { name: "Yes, withdraw" }).click();
    // The click only starts the form's navigation: the page is read once the account it leads to is shown.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("membership-status")).toHaveText("Cancelled");
    await expect(page.getByTestId("account-booking")).toContainText("REFUNDED");
    // Without JavaScript the answer is printed at the top of the page (in a <noscript>, which the
    // text locators skip): the page's HTML says it.
    expect(await page.content()).toContain("We have your withdrawal");
    await waitForMail(person.email, { subject: /withdrawal/i });
  });
});
