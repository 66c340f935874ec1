import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { subDays } from "date-fns";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { bookAndPay, localIso } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { clientAddressFor, expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";
import { screenshots } from "../../support/e2e/screenshots";

interface ExportFile {
  email: string;
  customers: { name: string; notes: string; orders: { orderNumber: string; payments: { last4: string }[] }[] }[];
}

test.describe("data requests", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);

  test("an admin exports a traveller's booking, erases it, and the order no longer names them", async ({
    page,
  }, testInfo) => {
    test.slow(); // a booking, a payment, an admin's sign-up, then the request's whole life
    const id = randomUUID().slice(0, 8);
    const traveller = { firstName: "Inès", lastName: `Moreau-${id}`, email: `ines.${id}@example.com` };
    const name = `${traveller.firstName} ${traveller.lastName}`;

    const { orderId } = await bookAndPay(page, traveller);
    const { rows } = await e2eDatabase().query<{ order_number: string; customer_id: string }>(
      "select order_number, customer_id from orders where id = $1",
      [orderId],
    );
    const { order_number: orderNumber, customer_id: customerId } = rows[0]!;

    await signInAsNewAdmin(page);
    await page.goto("/admin/data-requests");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes RGPD");
    await page.getByLabel("E-mail de la personne").fill(traveller.email);
    await page.getByLabel("Type de demande").selectOption({ label: "Effacement" });
    // Received 40 days ago: past its one-month deadline.
    await page.getByLabel("Reçue le").fill(localIso(subDays(new Date(), 40)));
    await page.getByRole("button", { name: "Enregistrer la demande" }).click();

    await expect(page).toHaveURL(/\/admin\/data-requests\/[0-9a-f-]{36}$/);
    await expect(page.getByText("Demande enregistrée").first()).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demande : Effacement");
    await expect(page.getByText("En retard")).toBeVisible();
    const found = page
      .getByRole("heading", { name: "Données trouvées" })
      .locator("xpath=ancestor::*[@data-slot='card']");
    await expect(found).toContainText(name);
    await expect(found).toContainText(orderNumber);
    await expect(found).toContainText("Visa •••• 4242");
    // The first paid fast track started a trial: the membership is part of the data.
    await expect(found).toContainText(/Medium, 49,00\s\$ par trimestre/);
    await expect(found).toContainText("Essai");
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "data-request", testInfo);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Exporter les données (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^donnees-personnelles-[0-9a-f]{8}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, "utf8")) as ExportFile;
    await testInfo.attach("export.json", { path: (await download.path())!, contentType: "application/json" });
    expect(file.email).toBe(traveller.email);
    expect(file.customers).toEqual([
      expect.objectContaining({
        name,
        notes: expect.stringContaining(`Email: ${traveller.email}`),
        orders: [expect.objectContaining({ orderNumber, payments: [expect.objectContaining({ last4: "4242" })] })],
      }),
    ]);
    const history = page.getByRole("heading", { name: "Historique" }).locator("xpath=ancestor::*[@data-slot='card']");
    await expect(history).toContainText("Données exportées");

    const erase = page.getByRole("button", { name: "Effacer les données" });
    await erase.click();
    await expect(page.getByText("Cochez la case pour confirmer l'effacement")).toBeVisible();
    await page.getByLabel(/Je confirme l'effacement définitif/).check();
    await erase.click();
    await expect(page.getByText("Données effacées").first()).toBeVisible();
    await expect(history).toContainText("Données effacées");
    await expect(page.getByText(/^Traitée le/)).toBeVisible();
    await expect(found).toContainText("Aucune réservation avec cette adresse.");
    await expect(found).toContainText("Aucune adhésion.");
    await expect(found).not.toContainText(orderNumber);
    await expect(history).toContainText("adhésions résiliées : 1");
    await screenshots(page, "data-request-erased", testInfo);

    await page.goto("/admin");
    const row = page
      .getByRole("region", { name: "Commandes récentes" })
      .getByRole("row")
      .filter({ hasText: orderNumber });
    await expect(row).toContainText("Client anonymisé");
    await expect(row).toContainText("Payée");
    await expect(page.getByRole("main")).not.toContainText(traveller.lastName);
    await expect(page.getByRole("main")).not.toContainText(traveller.email);

    const customer = await e2eDatabase().query("select full_name, email, notes, user_id from customers where id = $1", [
      customerId,
    ]);
    expect(customer.rows).toEqual([{ full_name: "Client anonymisé", email: null, notes: null, user_id: null }]);
    const kept = await e2eDatabase().query("select status from orders where order_number = $1", [orderNumber]);
    expect(kept.rows).toEqual([{ status: "paid" }]);
    // Cancelled at once, so that nothing is charged after the erasure; kept for the accounts, naming no one.
    const membership = await e2eDatabase().query("select status, email from memberships where customer_id = $1", [
      customerId,
    ]);
    expect(membership.rows).toEqual([{ status: "cancelled", email: null }]);
  });

  test("records, exports and erases without JavaScript too", async ({ browser }, testInfo) => {
    test.slow(); // an admin's sign-up and the request's whole life, each step a full page load
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const page = await context.newPage();
    const email = `no-js.${randomUUID().slice(0, 8)}@example.com`;
    const { rows } = await e2eDatabase().query<{ id: string }>(
      "insert into customers (full_name, email, notes) values ($1, $2, $3) returning id",
      [
        "Noé Script",
        email,
        `Airport: Paris Orly - ORY\nFlight date: 2031-01-01\nEmail: ${email}\nPhone: Not specified`,
      ],
    );
    const orderNumber = `FT-${Date.now()}-NOJS`;
    await e2eDatabase().query(
      `insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                           idempotency_key, adults)
       values ($1, $2, 2200, 'EUR', 'not_paid', 'Fast Track', 'Fast Track', 'e2e', $3, 2)`,
      [orderNumber, rows[0]!.id, randomUUID()],
    );

    await signInAsNewAdmin(page);
    await page.goto("/admin/data-requests");
    await page.getByLabel("E-mail de la personne").fill(email);
    await page.getByLabel("Type de demande").selectOption({ label: "Accès aux données" });
    await page.getByRole("button", { name: "Enregistrer la demande" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demande : Accès aux données");
    await expect(page.getByText("À traiter")).toBeVisible();

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Exporter les données (JSON)" }).click();
    const file = JSON.parse(await readFile((await (await downloading).path())!, "utf8")) as ExportFile;
    expect(file.customers.map((customer) => customer.orders.map((order) => order.orderNumber))).toEqual([
      [orderNumber],
    ]);

    await page.getByLabel(/Je confirme l'effacement définitif/).check();
    await page.getByRole("button", { name: "Effacer les données" }).click();
    await expect(page.getByText("Aucune réservation avec cette adresse.")).toBeVisible();
    const left = await e2eDatabase().query("select 1 from orders where order_number = $1", [orderNumber]);
    expect(left.rows).toEqual([]);
    await context.close();
  });
});
