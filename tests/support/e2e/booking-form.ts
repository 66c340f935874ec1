import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

// The booking and card forms as a traveller fills them in, for the tests that book.

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
export const PAYMENT_URL = new RegExp(`/fast-track-payment/${UUID}$`);
export const thisYear = new Date().getFullYear();

/** "YYYY-MM-DD" of a local day. */
export function localIso(date: Date) {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "YYYY-MM-DD" of `day` in the month `monthsAhead` months from now. */
export function isoDay(monthsAhead: number, day: number) {
  const now = new Date();
  return localIso(new Date(now.getFullYear(), now.getMonth() + monthsAhead, day));
}

/**
 * The form page is sent without React's scripts (ADR 013): the flight date is a native date input,
 * and small modules keep the total and the busy button (they run before the load event goto waits for).
 */
export async function openBookingForm(page: Page) {
  await page.goto("/fast-track-form");
  await expect(page.getByLabel("Flight Date")).toHaveAttribute("type", "date");
}

export async function chooseEuros(page: Page) {
  await page.goto("/fast-track");
  const header = page.getByRole("banner");
  await header.getByText("USD").click();
  await header.getByRole("button", { name: "Euros" }).click();
  // The menu shows the new symbol at once; the cookie arrives with the server's answer.
  await expect
    .poll(async () => (await page.context().cookies()).find((cookie) => cookie.name === "currency")?.value)
    .toBe("EUR");
}

export interface Traveller {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export async function fillBooking(
  page: Page,
  { adults = "2", children = "1", firstName = "Ann", lastName = "Lee", email = "ann@example.com" } = {},
) {
  await page.getByLabel("First Name").fill(firstName);
  await page.getByLabel("Last Name").fill(lastName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone (optional)").fill("+31 20 123 4567");
  await page.getByLabel("Airport").selectOption("Paris Orly - ORY");
  await page.getByLabel("Flight Date").fill(isoDay(1, 15));
  await page.getByLabel("Adults").selectOption(adults);
  await page.getByLabel("Children").selectOption(children);
}

export async function bookAndReachPayment(page: Page, traveller: Traveller = {}) {
  await openBookingForm(page);
  await fillBooking(page, traveller);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(PAYMENT_URL);
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
}

/** The box above the payment button by which the buyer asks for the order to start at once. */
export function consentBox(page: Page) {
  return page.getByRole("checkbox", { name: /^I ask for my Fast Track/ });
}

export async function payWith(page: Page, cardNumber: string, cvv = "123") {
  await page.getByLabel("Card Number").fill(cardNumber);
  await page.getByLabel("Expiry Month").selectOption("06");
  await page.getByLabel("Expiry Year").selectOption(String(thisYear + 2));
  await page.getByLabel("CVV").fill(cvv);
  await consentBox(page).check();
  await page.getByRole("button", { name: "FINISH" }).click();
}

/** Books as `traveller`, pays with a card that succeeds and waits for the confirmation: the order's id and number. */
export async function bookAndPay(page: Page, traveller: Traveller = {}) {
  await bookAndReachPayment(page, traveller);
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  const orderNumber = (await page.getByText(/^Order FT-/).textContent())!.replace("Order ", "");
  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  return { orderId, orderNumber };
}
