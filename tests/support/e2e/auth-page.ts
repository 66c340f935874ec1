import type { Page } from "@playwright/test";
import { createAccount, type AccountSteps, type Person } from "../accounts";
import { adminCli, e2eDatabaseUrl, NEEDS_POSTGRES } from "./database";
import { expect, expectNotice, test, waitForMail } from "./fixtures";

// Signing up and in on the /auth page, as a person does; the admin role comes from the real CLI.

export async function openSignUp(page: Page) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Inscription" }).click();
  // Without JavaScript the tab is a link: the form to fill is on the page it leads to.
  await expect(page).toHaveURL("/auth?tab=inscription");
}

export async function signUp(page: Page, person: Person) {
  await openSignUp(page);
  await page.getByLabel("Nom complet").fill(person.fullName);
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(person.password);
  await page.getByLabel("Confirmer le mot de passe").fill(person.password);
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expectNotice(page, "Compte créé avec succès");
}

export async function signIn(page: Page, person: Person) {
  await page.goto("/auth");
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Mot de passe").fill(person.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL("/");
}

/** Opens the link of the mail sent at sign-up, as the address's owner does: the address is confirmed and the site's home page opens. */
export async function confirmAddress(page: Page, email: string) {
  const mail = await waitForMail(email, { subject: /confirm your e-mail address$/ });
  const link = /https?:\/\/[^\s\]"]+\/verify-email\?token=[^\s\]"]+/.exec(mail.text)?.[0];
  expect(link, "the confirmation link").toBeTruthy();
  await page.goto(link!);
  await expect(page).toHaveURL("/");
}

const browserSteps = (page: Page): AccountSteps<void> => ({
  signUp: (person) => signUp(page, person),
  grantAdmin: async (email) => {
    await confirmAddress(page, email);
    await adminCli("grant", email);
  },
  signIn: (person) => signIn(page, person),
});

/** Signs `page` in as a new account that is not an admin. */
export async function signInAsNewMember(page: Page): Promise<Person> {
  return createAccount(browserSteps(page));
}

/** Signs `page` in as a new account made admin with the real CLI (needs the e2e server on PostgreSQL). */
export async function signInAsNewAdmin(page: Page): Promise<Person> {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  return createAccount(browserSteps(page), { admin: true });
}
