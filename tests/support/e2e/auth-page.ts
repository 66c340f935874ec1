import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { adminCli, e2eDatabaseUrl, NEEDS_POSTGRES } from "./database";
import { expect, test } from "./fixtures";

export interface Person {
  fullName: string;
  email: string;
  password: string;
}

export function newPerson(): Person {
  const id = randomUUID().slice(0, 8);
  return { fullName: `Camille ${id}`, email: `camille.${id}@example.com`, password: `motdepasse-${id}` };
}

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
  // A toast, or without JavaScript the same words printed on the page (text matching skips <noscript>).
  const created = "Compte créé avec succès";
  await expect(
    page
      .getByText(created)
      .or(page.getByRole("status").filter({ hasText: created }))
      .first(),
  ).toBeVisible();
}

export async function signIn(page: Page, person: Person) {
  await page.goto("/auth");
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Mot de passe").fill(person.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL("/");
}

/** Signs `page` in as a new account made admin with the real CLI (needs the e2e server on PostgreSQL). */
export async function signInAsNewAdmin(page: Page): Promise<Person> {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  const person = newPerson();
  await signUp(page, person);
  await adminCli("grant", person.email);
  await signIn(page, person);
  return person;
}
