import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { signInAsNewAdmin, signInAsNewMember } from "../../support/e2e/auth-page";
import { bookAndPay } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { clientAddressFor, expect, seriousA11yViolations, test } from "../../support/e2e/fixtures";
import { screenshots } from "../../support/e2e/screenshots";

const cardOf = (page: Page, title: string) =>
  page.getByRole("heading", { name: title, exact: true }).locator("xpath=ancestor::*[@data-slot='card']");

/** The minor units a French amount shows: "1 234,50 €" is 123450. */
const minorUnitsOf = (text: string) => Number(text.replace(/[^\d]/g, ""));

/**
 * How much of the dashboard's revenue card comes from `orderId`: the card's figure minus the
 * database's revenue from every other order. Other tests book orders meanwhile, so this retries
 * until both are read between two of their changes.
 */
async function revenueFromOrder(page: Page, orderId: string, expected: number) {
  await expect(async () => {
    const { rows } = await e2eDatabase().query<{ others: string }>(
      `select coalesce(sum(amount), 0) as others from orders where status in ('paid', 'completed') and id <> $1`,
      [orderId],
    );
    await page.goto("/admin");
    const revenue = page.getByRole("region", { name: "Indicateurs" }).getByText(/€$/);
    expect(minorUnitsOf((await revenue.textContent())!) - Number(rows[0]!.others)).toBe(expected);
  }).toPass({ timeout: 15_000 });
}

async function insertPaidOrder(fullName: string) {
  const { rows } = await e2eDatabase().query<{ id: string }>(
    "insert into customers (full_name, email) values ($1, $2) returning id",
    [fullName, `${randomUUID().slice(0, 8)}@example.com`],
  );
  const orderNumber = `FT-${Date.now()}-NOJS`;
  const inserted = await e2eDatabase().query<{ id: string }>(
    `insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                         idempotency_key, adults)
     values ($1, $2, 4400, 'EUR', 'paid', 'Fast Track', 'Fast Track', 'e2e', $3, 2) returning id`,
    [orderNumber, rows[0]!.id, randomUUID()],
  );
  const orderId = inserted.rows[0]!.id;
  // A charge from before the server started, as far as the sandbox knows: it refunds it on our ledger's word.
  await e2eDatabase().query(
    `insert into payments (order_id, provider, provider_ref, brand, last4, amount, currency, outcome)
     values ($1, 'sandbox', $2, 'Visa', '4242', 4400, 'EUR', 'succeeded')`,
    [orderId, `sandbox_${randomUUID()}`],
  );
  return { orderId, orderNumber };
}

test.describe("the admin orders", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  // Each signs up (and in) an account and runs the admin CLI; the first books and pays too.
  test.slow();
  // A refund above what is left is refused with 400, its form showing why.
  test.use({ allowedHttpErrors: [404, 400] });

  test("an admin finds a paid order by number, marks it completed, sees it in the history and exports it", async ({
    page,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const traveller = { firstName: "Léa", lastName: `Girard-${id}`, email: `lea.${id}@example.com` };
    const { orderId, orderNumber } = await bookAndPay(page, traveller);
    const { rows } = await e2eDatabase().query<{ amount: number; provider_ref: string }>(
      "select o.amount, p.provider_ref from orders o join payments p on p.order_id = o.id where o.id = $1",
      [orderId],
    );
    const { amount, provider_ref: providerRef } = rows[0]!;

    const admin = await signInAsNewAdmin(page);
    await revenueFromOrder(page, orderId, amount);

    await page.goto("/admin/orders");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Commandes");
    await page.getByLabel("Recherche").fill(orderNumber.toLowerCase());
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?q=ft-/);
    const results = page.getByRole("region", { name: "Commandes" });
    await expect(results.getByRole("row")).toHaveCount(2); // the header and the order
    await expect(results).toContainText(orderNumber);
    await expect(results).toContainText(`${traveller.firstName} ${traveller.lastName}`);
    await expect(results).toContainText(traveller.email);
    await expect(results).toContainText("Payée");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "admin-orders", testInfo);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Exporter en CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^commandes-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    await testInfo.attach("commandes.csv", { path: (await download.path())!, contentType: "text/csv" });
    expect(csv.startsWith("\uFEFFN° de commande,Date (UTC),Statut,Client,E-mail,")).toBe(true);
    const csvRows = csv.trimEnd().split("\r\n");
    expect(csvRows).toHaveLength(2);
    expect(csvRows[1]).toMatch(
      new RegExp(
        `^${orderNumber},\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},Payée,${traveller.firstName} ${traveller.lastName},${traveller.email},Fast Track,Paris Orly - ORY,\\d{4}-\\d{2}-\\d{2},2,1,${(amount / 100).toFixed(2)},USD$`,
      ),
    );

    await results.getByRole("link", { name: orderNumber }).click();
    await expect(page).toHaveURL(`/admin/orders/${orderId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Commande ${orderNumber}`);
    await expect(cardOf(page, "Client")).toContainText(traveller.email);
    await expect(cardOf(page, "Réservation")).toContainText("Paris Orly - ORY");
    await expect(cardOf(page, "Réservation")).toContainText("2 adultes, 1 enfant");
    await expect(cardOf(page, "Réservation")).toContainText(/33,00\s\$ \(USD\)/);
    await expect(cardOf(page, "Paiements")).toContainText("Visa •••• 4242");
    await expect(cardOf(page, "Paiements")).toContainText("Accepté");
    await expect(cardOf(page, "Paiements")).toContainText(providerRef);
    const history = page.getByRole("list", { name: "Historique, du plus récent au plus ancien" });
    await expect(history.getByRole("listitem")).toHaveCount(2);
    await expect(history.getByRole("listitem").first()).toContainText("Non payée → Payée");
    await expect(history.getByRole("listitem").first()).toContainText("par le client");
    await expect(page.getByRole("button", { name: "Annuler la commande" })).toHaveCount(0);
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "admin-order", testInfo);

    await page.getByLabel("Note (facultative)").fill("Passage coupe-file effectué");
    await page.getByRole("button", { name: "Marquer terminée" }).click();
    await expect(page.getByText("Statut mis à jour")).toBeVisible();
    await expect(history.getByRole("listitem")).toHaveCount(3);
    const latest = history.getByRole("listitem").first();
    await expect(latest).toContainText("Payée → Terminée");
    await expect(latest).toContainText(`par ${admin.email}`);
    await expect(latest).toContainText("Passage coupe-file effectué");
    await expect(cardOf(page, "Statut")).toContainText("Seul un remboursement");
    await expect(page.getByLabel("Note (facultative)")).toHaveCount(0);

    // A completed order may still be refunded, in part: it stays completed.
    const refunds = cardOf(page, "Remboursements");
    await expect(page.getByLabel("Montant à rembourser (USD)")).toHaveValue("33,00");
    await page.getByLabel("Montant à rembourser (USD)").fill("33,01");
    await page.getByLabel("Motif").fill("Geste commercial : attente au contrôle");
    await refunds.getByRole("button", { name: "Rembourser" }).click();
    await expect(refunds.getByText(/Montant trop élevé : 33,00\s\$ au plus\./)).toBeVisible();
    await expect(page.getByLabel("Montant à rembourser (USD)")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Montant à rembourser (USD)").fill("10");
    await refunds.getByRole("button", { name: "Rembourser" }).click();
    await expect(page.getByText("Remboursement effectué")).toBeVisible();
    await expect(page.getByText(/10,00\s\$ remboursés ; il reste 23,00\s\$ remboursables\./)).toBeVisible();
    const made = refunds
      .getByRole("list", { name: "Remboursements, du plus récent au plus ancien" })
      .getByRole("listitem");
    await expect(made).toHaveCount(1);
    await expect(made).toContainText("Geste commercial : attente au contrôle");
    await expect(made).toContainText(`par ${admin.email}`);
    await expect(page.getByLabel("Montant à rembourser (USD)")).toHaveValue("23,00");
    await expect(page.getByLabel("Motif")).toHaveValue("");
    await expect(cardOf(page, "Statut")).toContainText("Terminée");

    // A completed order is still confirmed revenue, as a paid one is: the card keeps counting it.
    await revenueFromOrder(page, orderId, amount);
  });

  test("refunds without JavaScript, lowering the revenue, and a stale page's refund and change are refused", async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const page = await context.newPage();
    const { orderId, orderNumber } = await insertPaidOrder(`Sans Script ${randomUUID().slice(0, 6)}`);
    await signInAsNewAdmin(page);
    await revenueFromOrder(page, orderId, 4400);

    await page.goto(`/admin/orders/${orderId}`);
    // Two more tabs of the page, opened before the refund.
    const [stale, staleRefund] = [await context.newPage(), await context.newPage()];
    for (const tab of [stale, staleRefund]) await tab.goto(`/admin/orders/${orderId}`);

    await expect(page.getByLabel("Montant à rembourser (EUR)")).toHaveValue("44,00");
    await page.getByLabel("Motif").fill("Vol annulé");
    await page.getByRole("button", { name: "Rembourser" }).click();
    // All that is left: a step asks first, and nothing is refunded until it is answered.
    const step = page.getByRole("form", { name: "Rembourser la totalité, 44,00 € ?" });
    await expect(step).toContainText("Tout ce qui reste est rendu sur la carte du client, sous 14 jours");
    await expect(cardOf(page, "Statut")).toContainText("Payée");
    await screenshots(page, "admin-order-refund-confirm", testInfo);
    await step.getByRole("button", { name: "Oui, tout rembourser" }).click();
    await expect(page.getByRole("status")).toContainText(
      /Remboursement effectué 44,00\s€ remboursés : la commande est entièrement remboursée\./,
    );
    await expect(cardOf(page, "Statut")).toContainText("Remboursée");
    const refunds = cardOf(page, "Remboursements");
    await expect(refunds).toContainText("Commande entièrement remboursée");
    await expect(refunds.getByRole("listitem")).toContainText("Vol annulé");
    await expect(page.getByLabel("Montant à rembourser (EUR)")).toHaveCount(0);
    await screenshots(page, "admin-order-refunded", testInfo);
    const history = page.getByRole("list", { name: "Historique, du plus récent au plus ancien" });
    await expect(history.getByRole("listitem").first()).toContainText("Payée → Remboursée");
    await expect(history.getByRole("listitem").first()).toContainText("Vol annulé");
    await revenueFromOrder(page, orderId, 0);

    await staleRefund.getByLabel("Motif").fill("Vol annulé");
    await staleRefund.getByRole("button", { name: "Rembourser" }).click();
    await expect(staleRefund.getByRole("status")).toContainText(
      "Remboursement refusé Cette commande est déjà entièrement remboursée : rien n'a été remboursé.",
    );
    await stale.getByRole("button", { name: "Marquer terminée" }).click();
    await expect(stale.getByRole("status")).toContainText(
      "Changement refusé Une commande « Remboursée » ne peut pas passer à « Terminée ». Rien n'a été modifié.",
    );
    const { rows } = await e2eDatabase().query<{ status: string; events: string; refunded: string }>(
      `select status, (select count(*) from order_events where order_id = $1) as events,
              (select sum(amount) from refunds where order_id = $1) as refunded
       from orders where id = $1`,
      [orderId],
    );
    expect(rows).toEqual([{ status: "refunded", events: "1", refunded: "4400" }]);

    await page.goto(`/admin/orders?q=${orderNumber}&status=refunded`);
    await expect(page.getByRole("region", { name: "Commandes" })).toContainText(orderNumber);
    await page.goto("/admin/orders?q=ab&from=demain");
    await expect(page.getByText("Saisissez au moins 3 caractères")).toBeVisible();
    await expect(page.getByText("Date de début invalide : utilisez le format AAAA-MM-JJ.")).toBeVisible();
    await expect(page.getByLabel("Du", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await context.close();
  });

  test("sends visitors to sign in and members home, from every orders page", async ({ page }) => {
    const { orderId } = await insertPaidOrder(`Accès ${randomUUID().slice(0, 6)}`);
    const paths = ["/admin/orders", `/admin/orders/${orderId}`, "/admin/orders/export.csv"];
    for (const path of paths) {
      await page.goto(path);
      await expect(page).toHaveURL("/auth");
    }
    await signInAsNewMember(page);
    for (const path of paths) {
      await page.goto(path);
      await expect(page).toHaveURL("/");
    }
  });
});
