import type { Page } from "@playwright/test";

export interface ButtonState {
  label: string;
  disabled: boolean;
}

/**
 * Clicks the submit button named `name` of a form that posts natively, and returns what that button
 * showed once the form was on its way. Playwright's locators wait for a pending navigation to end,
 * so they cannot look at the page the form leaves: the page reports the button itself.
 */
export async function submitAndReadButton(page: Page, name: string): Promise<ButtonState> {
  const prefix = "submit-button:";
  const report = page.waitForEvent("console", (message) => message.text().startsWith(prefix));
  await page.evaluate((prefix) => {
    addEventListener("submit", (event) => {
      // After the page's own submit listeners, which run in this same task.
      setTimeout(() => {
        const button = (event.target as HTMLFormElement).querySelector("button[type=submit]");
        if (!(button instanceof HTMLButtonElement)) return;
        console.log(prefix + JSON.stringify({ label: button.textContent, disabled: button.disabled }));
      });
    });
  }, prefix);
  await page.getByRole("button", { name, exact: true }).click();
  return JSON.parse((await report).text().slice(prefix.length)) as ButtonState;
}
