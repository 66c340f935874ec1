import type { Page } from "@playwright/test";
import { expect, waitForMail, type DeliveredMail } from "./fixtures";

/** The six digits of a sign-in mail. */
export function codeOf(mail: DeliveredMail): string {
  const code = /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  return code!;
}

/** The first link of `mail`'s plain text whose path matches `path`. */
export function linkOf(mail: DeliveredMail, path: RegExp): string {
  const link = new RegExp(`https?://\\S+${path.source}`).exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  return link!;
}

/** On the member area's sign-in page: asks for a code for `email`. */
export async function askForCode(page: Page, email: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
}

/** Signs in to the member area with the code the sign-in mail brings, as the member types it. */
export async function signInWithMailedCode(page: Page, email: string) {
  await page.goto("/account/sign-in");
  await askForCode(page, email);
  await page.getByLabel("Sign-in code").fill(codeOf(await waitForMail(email, { subject: /sign-in code$/ })));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);
}
