import type { Page } from "@playwright/test";
import {
  bookAndPay,
  bookAndReachPayment,
  chooseEuros,
  fillBooking,
  isoDay,
  localIso,
  openBookingForm,
  PAYMENT_URL,
  payWith,
  thisYear,
} from "../../support/e2e/booking-form";
import { submitAndReadButton } from "../../support/e2e/busy-button";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { companyDay } from "../../support/e2e/company-day";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import {
  cardOf,
  expect,
  screenshots,
  seriousA11yViolations,
  test,
  uniqueEmail,
  waitForMail,
  type DeliveredMail,
} from "../../support/e2e/fixtures";

/** Refusals answer 4xx on purpose; Chromium reports each such response as a console error. */
function allowRefusalStatuses(consoleErrors: string[], ...statuses: number[]) {
  const expected = (message: string) => statuses.some((status) => message.includes(`status of ${status}`));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((message) => !expected(message)));
}

const summaryValue = (page: Page, label: string) =>
  page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");

test("a guest books in euros, pays by card and gets a voucher, also by e-mail", async ({ page }, testInfo) => {
  test.slow(); // the whole journey, up to the e-mail arriving
  const email = uniqueEmail("ann");
  await chooseEuros(page);
  await openBookingForm(page);
  await expect(page.getByLabel("Adults").locator("option")).toHaveText(
    Array.from({ length: 10 }, (_, index) => `${index + 1} x €11`),
  );
  await expect(page.getByLabel("Children").locator("option")).toHaveText(
    Array.from({ length: 11 }, (_, index) => `${index} x €11`),
  );
  await expect(page.getByLabel("Airport").locator("option")).toHaveCount(12);
  await expect(page.getByTestId("booking-total")).toHaveText("€11");
  await fillBooking(page, { email });
  await expect(page.getByTestId("booking-total")).toHaveText("€33");
  await expect(page.getByText("3-day free trial of our membership, then €49 every quarter")).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(PAYMENT_URL);
  await expect(page.getByText("Your Fast Track booking has been created.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Booking progress" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByTestId("checkout-total")).toHaveText("€33");
  await expect(summaryValue(page, "Fast-Track")).toHaveText("€33");
  await expect(page.getByTestId("trial-note")).toHaveText(
    "Your first Fast Track purchase includes a 3-day free trial of our membership, then €49 every quarter. Cancel anytime.",
  );
  await expect(summaryValue(page, "Subscription")).toHaveText("€0 now (€49 after the 3-day trial)");
  await expect(summaryValue(page, "Name")).toHaveText("Ann Lee");
  await expect(summaryValue(page, "Email")).toHaveText(email);
  await expect(summaryValue(page, "Airport")).toHaveText("Paris Orly - ORY");
  await expect(summaryValue(page, "Adults")).toHaveText("2 x €11");
  await expect(summaryValue(page, "Children")).toHaveText("1 x €11");
  await expect(summaryValue(page, "Status")).toHaveText("NOT PAID");
  await expect(page.getByText("Secure Payment")).toBeVisible();
  await expect(page.getByText("Visa or Mastercard only")).toBeVisible();
  await expect(
    page.getByText(`The charge will appear on your bank statement as ${STATEMENT_DESCRIPTOR}.`),
  ).toBeVisible();
  await expect(page.getByLabel("Expiry Month").locator("option:not([value=''])")).toHaveText(
    Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, "0")),
  );
  await expect(page.getByLabel("Expiry Year").locator("option:not([value=''])")).toHaveText(
    Array.from({ length: 10 }, (_, index) => String(thisYear + index)),
  );
  await expect(page.getByLabel("CVV")).toHaveAttribute("maxlength", "4");
  expect(await seriousA11yViolations(page)).toEqual([]);

  const orderNumber = (await page.getByText(/^Order FT-/).textContent())!.replace("Order ", "");
  await page.reload();
  await expect(page.getByText(`Order ${orderNumber}`)).toBeVisible();
  await expect(summaryValue(page, "Status")).toHaveText("NOT PAID");

  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  await expect(summaryValue(page, "Order Number")).toHaveText(orderNumber);
  await expect(summaryValue(page, "Airport")).toHaveText("Paris Orly - ORY");
  await expect(summaryValue(page, "Passengers")).toHaveText("2 adults, 1 child");
  await expect(summaryValue(page, "Amount Paid")).toHaveText("€33");
  await expect(summaryValue(page, "Status")).toHaveText("PAID");
  await expect(page.getByRole("img", { name: "Voucher QR code" }).locator("svg")).toBeVisible();
  // The short code the e-mail gives too (checked against it below), not the QR's long signed one.
  await expect(page.getByTestId("voucher-short-code")).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2}$/);
  // Three days after the payment, which happened a moment ago: the day of now or, just after an
  // Amsterdam midnight, the day before.
  const inThreeDays = (msAgo: number) => companyDay(new Date(Date.now() - msAgo + 3 * 24 * 60 * 60 * 1000));
  const trialEnds = [...new Set([inThreeDays(0), inThreeDays(60_000)])].join("|");
  await expect(cardOf(page, "Your Membership")).toContainText(
    new RegExp(
      `Your free trial of the Medium membership has started: it is free until (${trialEnds}), then €49 every 3 months, charged to your Visa ending 4242\\.`,
    ),
  );
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshots(page, "booking-confirmed", testInfo);

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  const voucher = (await page.getByTestId("voucher-short-code").textContent())!;
  expect((await page.request.get(`/api/vouchers/${voucher}`)).status()).toBe(401);

  const mail = await waitForMail(email, { subject: `Your Fast Track booking ${orderNumber} is confirmed` });
  const { shortCode } = readConfirmation(mail, orderNumber);
  expect(shortCode).toBe(voucher);
  for (const body of [mail.text, mail.html]) {
    expect(body).toContain(orderNumber);
    expect(body).toContain(shortCode);
    expect(body).toContain("Paris Orly - ORY");
  }
});

test("a second order of the same address is told before payment that it starts no free trial", async ({ page }) => {
  const email = uniqueEmail("again");
  await chooseEuros(page);
  await bookAndPay(page, { email });

  await bookAndReachPayment(page, { email: email.toUpperCase() });
  await expect(page.getByTestId("trial-note")).toHaveText(
    "This e-mail address has already had its free trial, so this payment is for the Fast Track only: no membership starts.",
  );
  await expect(summaryValue(page, "Subscription")).toHaveText("None: free trial already used");
  await expect(page.getByText(/every quarter/)).toHaveCount(0);
  await expect(page.getByTestId("checkout-total")).toHaveText("€33");
  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your Membership" })).toHaveCount(0);
});

/**
 * What the confirmation must carry: the QR code as an inline image the HTML references by cid:
 * (never a data: URI), the short voucher code and the flight day as an .ics attachment.
 */
function readConfirmation(mail: DeliveredMail, orderNumber: string) {
  expect(mail.html).toContain('src="cid:voucher-qr"');
  expect(mail.html).not.toContain("data:");
  const qr = mail.attachments.find((attachment) => attachment.cid === "voucher-qr");
  expect(qr).toMatchObject({ contentType: "image/png", disposition: "inline" });
  expect(Buffer.from(qr!.content, "base64").subarray(0, 4).toString("latin1")).toBe("\x89PNG");
  const calendar = mail.attachments.find((attachment) => attachment.filename === "fast-track.ics");
  expect(calendar?.contentType).toBe("text/calendar");
  const ics = Buffer.from(calendar!.content, "base64").toString("utf8").replace(/\r\n /g, "");
  expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(ics).toContain(`UID:${orderNumber}@`);
  expect(ics).toContain("LOCATION:Paris Orly - ORY");
  expect(ics).toContain(`DTSTART;VALUE=DATE:${isoDay(1, 15).replaceAll("-", "")}`);
  const shortCode = /\b([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})\b/.exec(mail.text)?.[1];
  expect(shortCode, "the short voucher code").toBeDefined();
  return { shortCode: shortCode! };
}

test("the short code of the confirmation e-mail passes the admin's voucher check, a mistyped one does not", async ({
  page,
  consoleErrors,
}) => {
  test.slow();
  await signInAsNewAdmin(page);
  const email = uniqueEmail("desk");
  const { orderNumber } = await bookAndPay(page, { email });
  const mail = await waitForMail(email, { subject: `Your Fast Track booking ${orderNumber} is confirmed` });
  const { shortCode } = readConfirmation(mail, orderNumber);

  for (const typed of [shortCode, shortCode.toLowerCase().replaceAll("-", " ")]) {
    const answer = await page.request.get(`/api/vouchers/${encodeURIComponent(typed)}`);
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ valid: true, orderNumber, status: "paid" });
  }
  const symbols = [...shortCode.replaceAll("-", "")];
  symbols[0] = symbols[0] === "7" ? "8" : "7";
  const mistyped = await page.request.get(`/api/vouchers/${symbols.join("")}`);
  expect(mistyped.status()).toBe(404);
  expect(await mistyped.json()).toMatchObject({ valid: false });
  expect(consoleErrors).toEqual([]);
});

for (const [cardNumber, message] of [
  ["4000 0000 0000 0002", "Your card was declined."],
  ["4000 0000 0000 9995", "Your card has insufficient funds."],
] as const) {
  test(`${cardNumber} is refused with the gateway's message and the order stays unpaid`, async ({
    page,
    consoleErrors,
  }) => {
    await bookAndReachPayment(page);
    await payWith(page, cardNumber, "321");
    await expect(page.getByRole("alert")).toHaveText(message);
    await expect(summaryValue(page, "Status")).toHaveText("NOT PAID");
    await expect(page.getByLabel("Card Number")).toHaveValue("");
    await expect(page.getByLabel("CVV")).toHaveValue("");
    await expect(page.getByLabel("Expiry Month")).toHaveValue("06");
    await expect(page.getByLabel("Expiry Year")).toHaveValue(String(thisYear + 2));

    await payWith(page, "4242424242424242");
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    allowRefusalStatuses(consoleErrors, 402);
  });
}

test("5555 5555 5555 4444 pays, and paying again charges nothing", async ({ page }) => {
  await bookAndReachPayment(page);
  const url = page.url();
  await payWith(page, "5555 5555 5555 4444");
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  const again = await page.request.post(url, {
    form: {
      cardNumber: "4242 4242 4242 4242",
      expiryMonth: "06",
      expiryYear: String(thisYear + 2),
      cvv: "123",
      consent: "on",
    },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("Booking Confirmed");
});

test("the buttons say Processing... and are disabled while busy", async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let heldPosts = 0;
  // The booking form's page is not hydrated: it posts as a document.
  await page.route("**/fast-track-form", async (route) => {
    if (route.request().method() === "POST") {
      heldPosts += 1;
      await held;
    }
    await route.continue();
  });
  await openBookingForm(page);
  await fillBooking(page);
  const booking = submitAndReadButton(page, "Continue to Payment");
  await expect.poll(() => heldPosts).toBe(1);
  release();
  expect(await booking).toEqual({ label: "Processing...", disabled: true });
  await expect(page).toHaveURL(PAYMENT_URL);

  let releasePayment = () => {};
  const paymentHeld = new Promise<void>((resolve) => (releasePayment = resolve));
  // The payment page is hydrated: it posts through React Router's data requests.
  await page.route(/\.data(\?|$)/, async (route) => {
    if (route.request().method() === "POST") await paymentHeld;
    await route.continue();
  });
  // Pressed before React has taken the page over (a slow machine), the form posts as a document.
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("form#payment") ?? {}).some((key) => key.startsWith("__reactProps")),
  );
  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
  releasePayment();
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
});

test("the form names what is missing and refuses past dates", async ({ page, consoleErrors }) => {
  await openBookingForm(page);
  await expect(page.getByLabel("Flight Date")).toHaveAttribute("min", /^\d{4}-\d{2}-\d{2}$/);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  for (const message of [
    "First name is required",
    "Last name is required",
    "Email is required",
    "Please select an airport",
    "Please select a flight date",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await expect(page.getByLabel("First Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("First Name")).toBeFocused();
  await expect(page).toHaveURL("/fast-track-form");
  allowRefusalStatuses(consoleErrors, 400);

  // The page that answers a refusal is hydrated: the flight date is now a calendar.
  await page.getByLabel("Flight Date").click();
  const now = new Date();
  const yesterday = localIso(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  await expect(page.locator(`button[data-day="${localIso(now)}"]`)).toBeEnabled();
  if ((await page.locator(`button[data-day="${yesterday}"]`).count()) === 0) {
    await page.getByRole("button", { name: "Go to the Previous Month" }).click();
  }
  await expect(page.locator(`button[data-day="${yesterday}"]`).first()).toBeDisabled();
});

test("the server refuses a past date, 11 adults, missing fields and a tampered amount or currency", async ({
  page,
  consoleErrors,
}) => {
  await openBookingForm(page);
  const idempotencyKey = await page.locator('input[name="idempotencyKey"]').inputValue();
  const valid = {
    firstName: "Ann",
    lastName: "Lee",
    email: "ann@example.com",
    phone: "",
    airport: "Paris Orly - ORY",
    flightDate: isoDay(1, 15),
    adults: "2",
    children: "1",
    idempotencyKey,
  };
  for (const [form, message] of [
    [{ ...valid, flightDate: "2020-01-01" }, "The flight date cannot be in the past"],
    [{ ...valid, adults: "11" }, "Adults must be between 1 and 10"],
    [{ ...valid, firstName: "", email: "" }, "First name is required"],
    [{ ...valid, amount: "1" }, "fields we do not accept (amount)"],
    [{ ...valid, currency: "JPY" }, "fields we do not accept (currency)"],
  ] as const) {
    const response = await page.request.post("/fast-track-form", { form, maxRedirects: 0 });
    expect(response.status(), message).toBe(400);
    expect(await response.text()).toContain(message);
  }

  // A person who adds an amount field to the page's form is refused the same way.
  await fillBooking(page);
  await page.locator("form#booking").evaluate((form) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "amount";
    input.value = "1";
    form.append(input);
  });
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("alert")).toContainText("fields we do not accept (amount)");
  await expect(page).toHaveURL("/fast-track-form");
  await expect(page.getByLabel("First Name")).toHaveValue("Ann");
  allowRefusalStatuses(consoleErrors, 400);
});

test("booking and paying work with JavaScript off", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/fast-track-form");
  await page.getByLabel("First Name").fill("Noor");
  await page.getByLabel("Last Name").fill("Haddad");
  await page.getByLabel("Email").fill("noor@example.com");
  await page.getByLabel("Airport").selectOption("Lisbon Humberto Delgado - LIS");
  await page.getByLabel("Flight Date").fill(isoDay(2, 3));
  await page.getByLabel("Adults").selectOption("1");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(PAYMENT_URL);
  await expect(summaryValue(page, "Fast-Track")).toHaveText("$11");
  await expect(summaryValue(page, "Children")).toHaveCount(0);

  await payWith(page, "4000 0000 0000 0002");
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await expect(page.getByLabel("Card Number")).toHaveValue("");
  await expect(page.getByLabel("CVV")).toHaveValue("");
  await expect(page.getByLabel("Expiry Month")).toHaveValue("06");

  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  await expect(summaryValue(page, "Airport")).toHaveText("Lisbon Humberto Delgado - LIS");
  await expect(page.getByRole("img", { name: "Voucher QR code" }).locator("svg")).toBeVisible();
  await context.close();
});

test("an unknown order answers 404 with a clear message", async ({ page }) => {
  for (const path of ["/fast-track-payment/00000000-0000-4000-8000-000000000000", "/fast-track-payment/nope"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Order not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Book Your Fast Track" })).toHaveAttribute("href", "/fast-track-form");
  }
});
