import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import type { ReceivedMail } from "../smtp-sink.mjs";

export { screenshots } from "./screenshots";

/** A client address for one test, sent as X-Forwarded-For (the e2e server trusts its loopback proxy). */
export function clientAddressFor(testId: string): string {
  const [a, b, c] = createHash("sha256").update(testId).digest();
  return `10.${a}.${b}.${(c! % 254) + 1}`;
}

/**
 * Every page test fails on an unexpected console error, an uncaught exception in the page or a
 * Content-Security-Policy violation (some, like a refused `eval`, reach the console only this way).
 * Chromium reports an HTTP error status as a console error: a test that expects one (a 404 page,
 * a refused sign-in answering 401) lists it in `allowedHttpErrors`.
 */
export const test = base.extend<{ consoleErrors: string[]; allowedHttpErrors: number[] }>({
  allowedHttpErrors: [[404], { option: true }],
  extraHTTPHeaders: async ({ extraHTTPHeaders }, provide, testInfo) => {
    await provide({ ...extraHTTPHeaders, "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#${testInfo.retry}`) });
  },
  consoleErrors: [
    async ({ page, allowedHttpErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const status = /status of (\d{3})/.exec(message.text())?.[1];
        if (status && allowedHttpErrors.includes(Number(status))) return;
        errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (event) =>
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}`),
        ),
      );
      await use(errors);
      expect(errors, "console errors on the page").toEqual([]);
    },
    { auto: true },
  ],
});

/** Waits for `text` in a toast, or without JavaScript the same words printed on the page. */
export async function expectNotice(page: Page, text: string) {
  // Text matching skips <noscript>.
  await expect(
    page
      .getByText(text)
      .or(page.getByRole("status").filter({ hasText: text }))
      .first(),
  ).toBeVisible();
}

/** The serious and critical accessibility violations axe finds on the page. */
export async function seriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

export { expect };

/** An e-mail the app sent, as the E2E mail sink (mail-sink.mjs) received it. */
export type DeliveredMail = ReceivedMail;

/** Every mail the sink has received for `to` so far. */
export async function mailsTo(to: string): Promise<DeliveredMail[]> {
  const sink = process.env.MAIL_SINK_URL;
  if (!sink) throw new Error("MAIL_SINK_URL is not set: playwright.config.ts starts the mail sink");
  const response = await fetch(`${sink}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as DeliveredMail[];
}

/**
 * Waits until a mail to `to` (whose subject matches `subject`, when given) has been delivered, and
 * returns it. Give each test addresses of its own so tests never see each other's mail.
 */
export async function waitForMail(
  to: string,
  { subject, timeout = 15_000 }: { subject?: string | RegExp; timeout?: number } = {},
): Promise<DeliveredMail> {
  const matches = (mail: DeliveredMail) =>
    subject === undefined || (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject));
  let found: DeliveredMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(to)).find(matches);
        return found !== undefined;
      },
      { timeout, message: `a mail to ${to}${subject ? ` with subject ${subject}` : ""}` },
    )
    .toBe(true);
  return found!;
}

/** An address no other test uses, so its mail is this test's alone. */
export function uniqueEmail(label: string) {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/** The card (SectionCard) whose heading is `title`. */
export function cardOf(page: Page, title: string) {
  return page.getByRole("heading", { name: title, exact: true }).locator("xpath=ancestor::*[@data-slot='card']");
}
