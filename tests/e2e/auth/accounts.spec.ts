import { randomUUID } from "node:crypto";
import { newPerson } from "../../support/accounts";
import { confirmAddress, openSignUp, signIn, signInAsNewMember, signUp } from "../../support/e2e/auth-page";
import { adminCli, e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { clientAddressFor, expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";

test.describe("sign-up", () => {
  test("shows the French messages for short and mismatched passwords, then clears the form with a toast", async ({
    page,
  }) => {
    const person = newPerson();
    await openSignUp(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    const password = page.getByLabel("Mot de passe", { exact: true });
    const confirmation = page.getByLabel("Confirmer le mot de passe");
    const submit = page.getByRole("button", { name: "Créer mon compte" });

    await submit.click();
    await expect(page.getByText("Ce champ est obligatoire")).toHaveCount(4);

    await page.getByLabel("Nom complet").fill(person.fullName);
    await page.getByLabel("E-mail").fill(person.email);
    await password.fill("abc12");
    await confirmation.fill("abc12");
    await submit.click();
    await expect(page.getByText("Le mot de passe doit contenir au moins 6 caractères")).toBeVisible();
    await expect(password).toHaveAttribute("aria-invalid", "true");

    await password.fill(person.password);
    await confirmation.fill(`${person.password}!`);
    await submit.click();
    await expect(page.getByText("Les mots de passe ne correspondent pas")).toBeVisible();
    await expect(confirmation).toHaveAttribute("aria-describedby", /.+/);

    await confirmation.fill(person.password);
    await submit.click();
    await expect(page.getByText("Compte créé avec succès")).toBeVisible();
    await expect(page.getByText("Vous pouvez maintenant vous connecter")).toBeVisible();
    for (const field of ["Nom complet", "E-mail"]) await expect(page.getByLabel(field)).toHaveValue("");
    await expect(password).toHaveValue("");
    await expect(confirmation).toHaveValue("");
    await page.mouse.move(0, 0); // axe judges the page at rest, not the submit button's hover colour
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

test.describe("signing in", () => {
  test("lands on the home page with Sign Out; a member is sent away from /admin and /auth; signing out", async ({
    page,
  }) => {
    await signInAsNewMember(page);
    const header = page.getByRole("banner");
    await expect(header.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(header.getByRole("link", { name: /Login/ })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "Admin" })).toHaveCount(0);
    // A password account reaches the same member area as a sign-in code does.
    await header.getByRole("link", { name: "My Account" }).first().click();
    await expect(page).toHaveURL("/account");
    await expect(page.getByTestId("membership-status")).toHaveCount(0);
    await expect(page.getByText("There is no membership with this address.")).toBeVisible();
    await page.goto("/");

    await page.goto("/admin");
    await expect(page).toHaveURL("/");
    await page.goto("/auth");
    await expect(page).toHaveURL("/");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByText("Déconnexion réussie")).toBeVisible();
    await expect(page.getByText("À bientôt !")).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(header.getByRole("link", { name: /Login/ })).toBeVisible();

    await page.goto("/admin");
    await expect(page).toHaveURL("/auth");
  });

  test.describe("with a wrong password", () => {
    test.use({ allowedHttpErrors: [404, 401] });

    test("says so in French without telling whether the e-mail has an account", async ({ page }) => {
      const person = newPerson();
      await signUp(page, person);
      for (const email of [person.email, `unknown.${person.email}`]) {
        await page.goto("/auth");
        await page.getByLabel("E-mail").fill(email);
        await page.getByLabel("Mot de passe").fill("not-the-password");
        await page.getByRole("button", { name: "Se connecter" }).click();
        await expect(page.getByText("Erreur de connexion")).toBeVisible();
        await expect(page.getByRole("alert").filter({ hasText: "E-mail ou mot de passe incorrect" })).toBeVisible();
        await expect(page.getByLabel("E-mail")).toHaveValue(email);
        await expect(page.getByLabel("Mot de passe")).toHaveValue("");
        await expect(page).toHaveURL(/\/auth/);
      }
    });
  });

  test("works with JavaScript off", async ({ browser }, testInfo) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const page = await context.newPage();
    const person = newPerson();
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Inscription" }).click();
    await expect(page).toHaveURL("/auth?tab=inscription");
    await page.getByLabel("Nom complet").fill(person.fullName);
    await page.getByLabel("E-mail").fill(person.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(person.password);
    await page.getByLabel("Confirmer le mot de passe").fill(person.password);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    // Without JavaScript there is no toast: the message is printed on the page.
    await expect(page.getByRole("status")).toContainText(
      "Compte créé avec succès Vous pouvez maintenant vous connecter",
    );
    await expect(page.getByLabel("Nom complet")).toHaveValue("");

    await page.getByRole("tab", { name: "Connexion" }).click();
    await page.getByLabel("E-mail").fill(person.email);
    await page.getByLabel("Mot de passe").fill(person.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign Out" })).toBeVisible();
    await context.close();
  });
});

/** "1 234,50 €" for 123450 minor units, whatever spaces the page uses. */
function euroPattern(minorUnits: number) {
  const whole = String(Math.floor(minorUnits / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, "\\s");
  return `${whole},${String(minorUnits % 100).padStart(2, "0")}\\s€`;
}

test.describe("the admin dashboard", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);

  async function dashboardTotals() {
    const { rows } = await e2eDatabase().query<{ customers: string; orders: string; revenue: string }>(
      `select (select count(*) from customers) as customers,
              (select count(*) from orders) as orders,
              (select coalesce(sum(amount), 0) from orders where status in ('paid', 'completed')) as revenue`,
    );
    return rows[0]!;
  }

  interface OrderEntry {
    amount: number;
    status: string;
    currency?: string;
    createdAt?: Date;
  }

  async function insertOrders(fullName: string, entries: OrderEntry[]) {
    const db = e2eDatabase();
    const { rows } = await db.query<{ id: string }>("insert into customers (full_name) values ($1) returning id", [
      fullName,
    ]);
    const numbers: string[] = [];
    for (const { amount, status, currency = "EUR", createdAt = new Date() } of entries) {
      const orderNumber = `FT-${Date.now()}-${randomUUID().slice(0, 6).toUpperCase()}`;
      await db.query(
        `insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                             idempotency_key, adults, created_at)
         values ($1, $2, $3, $4, $5, 'Fast Track', 'Fast Track', 'e2e', $6, 1, $7)`,
        [orderNumber, rows[0]!.id, amount, currency, status, randomUUID(), createdAt],
      );
      numbers.push(orderNumber);
    }
    return numbers;
  }

  test("after `npm run admin:grant` the member sees Admin and the dashboard's totals for the orders made", async ({
    page,
  }) => {
    test.slow(); // two runs of the admin CLI (npm, then tsx) and an axe check: over 60 s on a loaded machine
    const person = newPerson();
    await signUp(page, person);

    const { rows } = await e2eDatabase().query<{ full_name: string; password: string }>(
      `select u.full_name, a.password from "user" u join account a on a.user_id = u.id where u.email = $1`,
      [person.email],
    );
    expect(rows).toEqual([{ full_name: person.fullName, password: expect.stringMatching(/^[0-9a-f]+:[0-9a-f]+$/) }]);
    expect(rows[0]!.password).not.toContain(person.password);

    await signIn(page, person);
    await page.goto("/admin");
    await expect(page).toHaveURL("/");

    const company = `Société ${randomUUID().slice(0, 6)}`;
    const [paid, completed, unpaid] = await insertOrders(company, [
      { amount: 2200, status: "paid" },
      { amount: 1100, status: "completed", currency: "USD" },
      { amount: 9900, status: "not_paid" },
    ]);
    // Not before the owner of the address has followed the link of the mail sent at sign-up.
    await expect(adminCli("grant", person.email)).rejects.toThrow("has not confirmed its e-mail address");
    await confirmAddress(page, person.email);
    expect(await adminCli("grant", person.email)).toBe(`${person.email} is now an admin.\n`);

    await page.reload();
    await page.getByRole("banner").getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tableau de bord administrateur");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    // Other tests may add orders meanwhile: the page must agree with the database's own totals.
    const stats = page.getByRole("region", { name: "Indicateurs" });
    await expect(async () => {
      const totals = await dashboardTotals();
      await page.reload();
      await expect(stats).toContainText(`Total clients${totals.customers}Clients enregistrés`, { timeout: 1_000 });
      await expect(stats).toContainText(`Commandes${totals.orders}Toutes les commandes`, { timeout: 1_000 });
      await expect(stats).toContainText(
        new RegExp(`Chiffre d'affaires${euroPattern(Number(totals.revenue))}Commandes`),
        {
          timeout: 1_000,
        },
      );
    }).toPass({ timeout: 15_000 });
    await expect(stats).toContainText("Opérationnel");
    await expect(stats).toContainText("Paiements : bac à sable, aucun argent ne circule");

    const table = page.getByRole("region", { name: "Commandes récentes" });
    const row = (orderNumber: string) => table.getByRole("row").filter({ hasText: orderNumber });
    await expect(row(paid!)).toContainText(company);
    await expect(row(paid!)).toContainText("Fast Track");
    await expect(row(paid!)).toContainText(/22,00\s€/);
    await expect(row(completed!)).toContainText(/11,00\s\$/);
    await expect(row(paid!).getByText("Payée")).toHaveClass(/green/);
    await expect(row(completed!).getByText("Terminée")).toHaveClass(/green/);
    await expect(row(unpaid!).getByText("Non payée")).toHaveClass(/yellow/);
    await expect(row(paid!)).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    for (const [name, href] of [
      ["Gestion des clients", "/admin/clients"],
      ["Statistiques de ventes", "/admin/statistics"],
    ]) {
      await expect(page.getByRole("link", { name, exact: true })).toHaveAttribute("href", href!);
    }
    await expect(page.getByText("Fonctionnalités à venir")).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Retour au site" }).click();
    await expect(page).toHaveURL("/");
    await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByText("Déconnexion réussie")).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Admin" })).toHaveCount(0);
  });

  test("pages through the orders 25 at a time", async ({ page }) => {
    const person = newPerson();
    await signUp(page, person);
    await confirmAddress(page, person.email);
    await adminCli("grant", person.email);
    // Dated a year back, so that they do not push another test's new orders off the first page.
    const lastYear = Date.now() - 365 * 24 * 3600_000;
    await insertOrders(
      `Pagination ${randomUUID().slice(0, 6)}`,
      Array.from({ length: 26 }, (_, index) => ({
        amount: 100 + index,
        status: "not_paid",
        createdAt: new Date(lastYear - index * 1000),
      })),
    );
    await signIn(page, person);
    await page.goto("/admin");
    const table = page.getByRole("region", { name: "Commandes récentes" });
    await expect(table.getByRole("row")).toHaveCount(26); // a header and 25 orders
    // The first order by its number only: it may be another test's, which that test may pay meanwhile.
    const firstOrder = table.getByRole("row").nth(1).getByRole("cell").first();
    const firstNumber = await firstOrder.textContent();

    await page.getByRole("link", { name: "Suivant" }).click();
    await expect(page).toHaveURL(/\/admin\?after=/);
    await expect(firstOrder).not.toHaveText(firstNumber!);
    await page.getByRole("link", { name: "Précédent" }).click();
    await expect(page).toHaveURL(/\/admin\?before=/);
    await expect(firstOrder).toHaveText(firstNumber!);
  });
});
