import type { Page } from "@playwright/test";
import { siteConfig } from "../../../site.config";
import { submitAndReadButton } from "../../support/e2e/busy-button";
import { expect, mailsTo, seriousA11yViolations, test, uniqueEmail, waitForMail } from "../../support/e2e/fixtures";

const MESSAGE_SENT = "Message sent successfully! We'll get back to you soon.";
const LINK_SENT = "Unsubscribe link sent to your email";
const COMPANY = siteConfig.company.email;

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/**
 * The status of every POST the page sends. These pages are not hydrated (ADR 013): the server
 * validates, and a refused submission is answered 400 and stores nothing (tests/integration).
 */
function recordPostStatuses(page: Page) {
  const statuses: number[] = [];
  page.on("response", (response) => {
    if (response.request().method() === "POST") statuses.push(response.status());
  });
  return statuses;
}

/** Holds the page's form submissions back a little, as a slow network would, to see the busy state. */
async function slowDownPosts(page: Page) {
  await page.route("**/*", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
}

async function fillForm(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
}

async function expectFormValues(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await expect(page.getByLabel(label, { exact: true }), label).toHaveValue(value);
  }
}

/** The field is marked invalid and points at its message, which reads `message`. */
async function expectInlineError(page: Page, label: string, message: string) {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = await field.getAttribute("aria-describedby");
  expect(describedBy, `${label} has aria-describedby`).toBeTruthy();
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(message);
}

function contactValues(email = uniqueEmail("contact")) {
  const name = `Ada${Math.random().toString(36).slice(2, 8)}`;
  return {
    "First name": name,
    "Last name": "Lovelace",
    Email: email,
    Phone: "+31 6 1234 5678",
    Message: "When does my membership start?",
  };
}

function servicesValues(email = uniqueEmail("services")) {
  return {
    "Full name": `Grace Hopper ${Math.random().toString(36).slice(2, 8)}`,
    Email: email,
    Message: "Does the concierge book restaurants?",
  };
}

// These pages validate on the server (see recordPostStatuses): a refused submission answers 400.
test.use({ allowedHttpErrors: [404, 400] });

const EMPTY_CONTACT = { "First name": "", "Last name": "", Email: "", Phone: "", Message: "" };
const EMPTY_SERVICES = { "Full name": "", Email: "", Message: "" };

test.describe("the contact page", () => {
  test("shows both options: hours, call, e-mail and the member area; and the form", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("CONTACT US");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 2, name: /Option 1/ })).toBeVisible();
    await expect(main.getByRole("heading", { level: 2, name: /Option 2/ })).toBeVisible();
    await expect(main).toContainText("7 days a week, 9 AM to 8 PM");
    await expect(main.getByRole("link", { name: `Call us: ${siteConfig.company.phone}` })).toHaveAttribute(
      "href",
      `tel:${siteConfig.company.phone.replace(/[^\d+]/g, "")}`,
    );
    await expect(main.getByRole("link", { name: `Email us: ${COMPANY}` })).toHaveAttribute("href", `mailto:${COMPANY}`);
    // The spec's chat lives in a separate member site; without one (a fresh clone) the note points at
    // this site's member area, which has no chat to promise.
    await expect(main.getByRole("link", { name: "your account" })).toHaveAttribute("href", "/account");
    await expect(main.getByRole("button", { name: "Submit Now" })).toBeEnabled();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  test("a valid message is sent: toast, fields cleared, acknowledgement and notification delivered", async ({
    page,
  }) => {
    const values = contactValues();
    await page.goto("/contact");
    await fillForm(page, values);
    await page.getByRole("button", { name: "Submit Now" }).click();

    await expect(toast(page, MESSAGE_SENT)).toBeVisible();
    await expectFormValues(page, EMPTY_CONTACT);
    const acknowledgement = await waitForMail(values.Email);
    expect(acknowledgement.subject).toBe(`${siteConfig.company.name}: we received your message`);
    expect(acknowledgement.text).toContain("We have received your message");
    expect(acknowledgement.html).toContain("We have received your message");
    const notification = await waitForMail(COMPANY, { subject: new RegExp(values["First name"]) });
    expect(notification.subject).toBe(`New message from the contact page: ${values["First name"]} Lovelace`);
    for (const value of [values.Email, values.Phone, values.Message]) expect(notification.text).toContain(value);
  });

  test("what was typed survives a navigation within the page, such as a change of hash", async ({ page }) => {
    const values = contactValues();
    await page.goto("/contact");
    await fillForm(page, values);
    await page.getByRole("link", { name: "Skip to content" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/contact#main");
    await expectFormValues(page, values);
  });

  test("the button says 'Sending...' and is disabled while the message is on its way", async ({ page }) => {
    await slowDownPosts(page);
    await page.goto("/contact");
    await fillForm(page, contactValues());
    expect(await submitAndReadButton(page, "Submit Now")).toEqual({ label: "Sending...", disabled: true });
    await expect(toast(page, MESSAGE_SENT)).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit Now" })).toBeEnabled();
  });

  for (const [label, value, message] of [
    ["First name", "", "First name is required"],
    ["First name", "   ", "First name is required"],
    ["Last name", "", "Last name is required"],
    ["Email", "ada@", "Invalid email address"],
    ["Email", "", "Invalid email address"],
    ["Phone", "", "Phone number is required"],
    ["Message", "  ", "Message is required"],
  ] as const) {
    test(`${label} ${JSON.stringify(value)} is refused with '${message}' and nothing is sent`, async ({ page }) => {
      const postStatuses = recordPostStatuses(page);
      const values = { ...contactValues(), [label]: value };
      await page.goto("/contact");
      await fillForm(page, values);
      await page.getByRole("button", { name: "Submit Now" }).click();

      await expect(toast(page, message)).toBeVisible();
      await expectInlineError(page, label, message);
      await expect(page.getByLabel(label, { exact: true })).toBeFocused();
      await expectFormValues(page, values);
      expect(postStatuses).toEqual([400]);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }

  test("the first invalid field's message is the one in the toast", async ({ page }) => {
    await page.goto("/contact");
    await page.getByRole("button", { name: "Submit Now" }).click();
    await expect(toast(page, "First name is required")).toBeVisible();
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(1);
    for (const [label, message] of [
      ["Last name", "Last name is required"],
      ["Email", "Invalid email address"],
      ["Phone", "Phone number is required"],
      ["Message", "Message is required"],
    ]) {
      await expectInlineError(page, label!, message!);
    }
  });

  test("reached from a hydrated page, the form validates in the browser and its scripts stay out", async ({ page }) => {
    const postStatuses = recordPostStatuses(page);
    await page.goto("/auth");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("CONTACT US");
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
    await page.getByRole("button", { name: "Submit Now" }).click();
    await expect(toast(page, "First name is required")).toBeVisible();
    await expect(page.getByLabel("First name", { exact: true })).toBeFocused();
    await expect(page.getByRole("button", { name: "Submit Now" })).toBeEnabled();
    expect(postStatuses).toEqual([]);
  });

  test("inputs stop at the forms' length limits", async ({ page }) => {
    await page.goto("/contact");
    for (const [label, limit] of [
      ["First name", 100],
      ["Last name", 100],
      ["Email", 255],
      ["Phone", 20],
      ["Message", 1000],
    ] as const) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute("maxlength", String(limit));
    }
  });
});

test.describe("the unsubscribe page", () => {
  test("shows the form, customer service's phone and e-mail, and the hours", async ({ page }) => {
    await page.goto("/unsubscribe");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe");
    const main = page.getByRole("main");
    await expect(main.getByRole("button", { name: "Unsubscribe" })).toBeEnabled();
    await expect(main.getByRole("link", { name: `Call us: ${siteConfig.company.phone}` })).toBeVisible();
    await expect(main.getByRole("link", { name: `Email us: ${COMPANY}` })).toHaveAttribute("href", `mailto:${COMPANY}`);
    await expect(main.getByRole("complementary", { name: "Customer service hours" })).toContainText(
      "7 days a week, 9 AM to 8 PM",
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  test("the e-mailed link confirms once: the link, the confirmation page, then the single-use message", async ({
    page,
  }) => {
    const email = uniqueEmail("unsubscribe");
    await page.goto("/unsubscribe");
    await page.getByLabel("Email", { exact: true }).fill(`  ${email} `);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(toast(page, LINK_SENT)).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");

    const mail = await waitForMail(email);
    const link = /https?:\/\/\S+\/unsubscribe\/confirm\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    expect(mail.html).toContain(`href="${link}"`);

    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm unsubscribe");
    await expect(page.getByRole("main")).toContainText(email);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Opening the link changed nothing: it still waits for the button.
    await page.reload();
    await page.getByRole("button", { name: "Confirm unsubscribe" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
    await expect(page.getByRole("main")).toContainText(email);
    await waitForMail(COMPANY, { subject: `Unsubscribe confirmed: ${email}` });

    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has already been used");
    await expect(page.getByRole("button", { name: "Confirm unsubscribe" })).toHaveCount(0);
  });

  test("a link with an unknown token says it is not valid", async ({ page }) => {
    const response = await page.goto(`/unsubscribe/confirm?token=${"A".repeat(43)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
    await expect(page.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/unsubscribe");
  });

  test("the button says 'Sending...' and is disabled while the request is on its way", async ({ page }) => {
    await slowDownPosts(page);
    await page.goto("/unsubscribe");
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("busy"));
    expect(await submitAndReadButton(page, "Unsubscribe")).toEqual({ label: "Sending...", disabled: true });
    await expect(toast(page, LINK_SENT)).toBeVisible();
  });

  for (const value of ["not-an-address", "", "   "]) {
    test(`the address ${JSON.stringify(value)} is refused with 'Invalid email address'`, async ({ page }) => {
      const postStatuses = recordPostStatuses(page);
      await page.goto("/unsubscribe");
      await page.getByLabel("Email", { exact: true }).fill(value);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(toast(page, "Invalid email address")).toBeVisible();
      await expectInlineError(page, "Email", "Invalid email address");
      // An e-mail input drops surrounding spaces by itself.
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue(value.trim());
      expect(postStatuses).toEqual([400]);
    });
  }
});

/** The services form, wherever it is rendered. */
function servicesFormTests(path: string) {
  test("a valid message is sent: toast, fields cleared, both mails delivered", async ({ page }) => {
    const values = servicesValues();
    await page.goto(path);
    await fillForm(page, values);
    await page.getByRole("button", { name: "Submit", exact: true }).click();

    await expect(toast(page, MESSAGE_SENT)).toBeVisible();
    await expect(page).toHaveURL(`${path}#contact`);
    await expectFormValues(page, EMPTY_SERVICES);
    await waitForMail(values.Email, { subject: `${siteConfig.company.name}: we received your message` });
    const notification = await waitForMail(COMPANY, {
      subject: `New message from the services page: ${values["Full name"]}`,
    });
    expect(notification.text).toContain(values.Message);
  });

  test("the button says 'Sending...' and is disabled while busy", async ({ page }) => {
    await slowDownPosts(page);
    await page.goto(path);
    await fillForm(page, servicesValues());
    expect(await submitAndReadButton(page, "Submit")).toEqual({ label: "Sending...", disabled: true });
    await expect(toast(page, MESSAGE_SENT)).toBeVisible();
  });

  for (const [label, value, message] of [
    ["Full name", " ", "Full name is required"],
    ["Email", "grace@", "Invalid email address"],
    ["Message", "", "Message is required"],
  ] as const) {
    test(`${label} ${JSON.stringify(value)} is refused with '${message}'`, async ({ page }) => {
      const postStatuses = recordPostStatuses(page);
      const values = { ...servicesValues(), [label]: value };
      await page.goto(path);
      await fillForm(page, values);
      await page.getByRole("button", { name: "Submit", exact: true }).click();
      await expect(toast(page, message)).toBeVisible();
      await expectInlineError(page, label, message);
      await expectFormValues(page, values);
      expect(postStatuses).toEqual([400]);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }
}

test.describe("the services contact form on its own page", () => {
  servicesFormTests("/services/contact");
});

test.describe("the services contact form on /services", () => {
  servicesFormTests("/services");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form sends, shows the toast on the page and clears the fields", async ({ page }) => {
    const values = contactValues();
    await page.goto("/contact");
    await fillForm(page, values);
    await page.getByRole("button", { name: "Submit Now" }).click();
    await expect(page).toHaveURL("/contact");
    await expect(page.getByRole("status").filter({ hasText: MESSAGE_SENT })).toBeVisible();
    await expectFormValues(page, EMPTY_CONTACT);
    await waitForMail(values.Email);
  });

  test("a refused contact form keeps what was typed and shows the first error", async ({ page }) => {
    const postStatuses = recordPostStatuses(page);
    const values = { ...contactValues(), "First name": "   ", Phone: "   " };
    await page.goto("/contact");
    await fillForm(page, values);
    await page.getByRole("button", { name: "Submit Now" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "First name is required" })).toBeVisible();
    await expectInlineError(page, "First name", "First name is required");
    await expectInlineError(page, "Phone", "Phone number is required");
    await expectFormValues(page, { ...values, "First name": "   ", Phone: "   " });
    expect(await mailsTo(values.Email)).toEqual([]);
    expect(postStatuses).toEqual([400]);
  });

  test("the unsubscribe form and its confirmation link work", async ({ page }) => {
    const email = uniqueEmail("nojs-unsubscribe");
    await page.goto("/unsubscribe");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("status").filter({ hasText: LINK_SENT })).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");

    const mail = await waitForMail(email);
    const link = /https?:\/\/\S+\/unsubscribe\/confirm\?token=[\w-]+/.exec(mail.text)![0];
    await page.goto(link);
    await page.getByRole("button", { name: "Confirm unsubscribe" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
  });

  test("the services form sends and comes back to the form with the toast", async ({ page }) => {
    const values = servicesValues();
    await page.goto("/services/contact");
    await fillForm(page, values);
    await page.getByRole("button", { name: "Submit", exact: true }).click();
    await expect(page).toHaveURL("/services/contact#contact");
    await expect(page.getByRole("status").filter({ hasText: MESSAGE_SENT })).toBeVisible();
    await expectFormValues(page, EMPTY_SERVICES);
    await waitForMail(values.Email);
  });
});
