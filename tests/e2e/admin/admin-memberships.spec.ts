import { randomUUID } from "node:crypto";
import { signInAsNewAdmin, signInAsNewMember } from "../../support/e2e/auth-page";
import { bookAndPay } from "../../support/e2e/booking-form";
import { endTrialAndBill } from "../../support/e2e/billing";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { cardOf, expect, screenshots, seriousA11yViolations, test } from "../../support/e2e/fixtures";
import { companyDay } from "../../support/e2e/company-day";

const frenchDay = (date: Date) => companyDay(date, "fr-FR");

test.describe("the admin memberships", () => {
  // The admin role comes from the CLI, and the first fee from the billing CLI: both need the
  // server's database, which only PostgreSQL lets the tests open beside it.
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.slow();
  // A refused refund is answered 400, with the form and its message.
  test.use({ allowedHttpErrors: [400] });

  test("an admin finds a member, refunds part of their first fee and cancels the membership", async ({
    page,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const traveller = { firstName: "Chloé", lastName: `Bernard-${id}`, email: `chloe.${id}@example.com` };
    const name = `${traveller.firstName} ${traveller.lastName}`;
    const { orderId, orderNumber } = await bookAndPay(page, traveller);
    const { membershipId, trialEndsAt } = await endTrialAndBill(orderId);

    const admin = await signInAsNewAdmin(page);
    await page.goto("/admin/memberships");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Abonnements");
    await page.getByLabel("Recherche").fill(traveller.lastName);
    await page.getByLabel("Statut").selectOption({ label: "Active" });
    await page.getByLabel("Formule").selectOption({ label: "Medium" });
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(/\/admin\/memberships\?q=Bernard-[0-9a-f]+&status=active&plan=medium$/);
    const results = page.getByRole("region", { name: "Abonnements" });
    await expect(results.getByRole("row")).toHaveCount(2); // the header and the member
    for (const text of [name, traveller.email, "Medium", "Active", "49,00 $", frenchDay(trialEndsAt)]) {
      await expect(results).toContainText(text);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "admin-memberships", testInfo);

    await page.getByLabel("Statut").selectOption({ label: "Essai" });
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page.getByText("Aucun abonnement ne correspond à ces critères.")).toBeVisible();
    await page.getByLabel("Statut").selectOption({ label: "Active" });
    await page.getByRole("button", { name: "Filtrer" }).click();

    await results.getByRole("link", { name }).click();
    await expect(page).toHaveURL(`/admin/memberships/${membershipId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Abonnement Medium");
    await expect(cardOf(page, "Abonnement")).toContainText("Visa •••• 4242");
    await expect(cardOf(page, "Abonnement")).toContainText("USD");
    await expect(cardOf(page, "Membre")).toContainText(traveller.email);
    await expect(cardOf(page, "Membre").getByRole("link", { name: orderNumber })).toHaveAttribute(
      "href",
      `/admin/orders/${orderId}`,
    );
    // The order links back to the membership it started.
    await cardOf(page, "Membre").getByRole("link", { name: orderNumber }).click();
    await expect(cardOf(page, "Client")).toContainText("Abonnement démarré par cette commande");
    await cardOf(page, "Client").getByRole("link", { name: "Medium · Active" }).click();
    await expect(page).toHaveURL(`/admin/memberships/${membershipId}`);
    const invoices = page.getByRole("list", { name: "Factures, de la plus récente à la plus ancienne" });
    await expect(invoices.getByRole("listitem")).toHaveCount(1);
    await expect(invoices).toContainText("Payée");
    const history = page.getByRole("list", { name: "Historique, du plus récent au plus ancien" });
    await expect(history.getByRole("listitem").first()).toContainText("Essai → Active");
    await expect(history.getByRole("listitem").first()).toContainText("par le système");
    await page.getByText("Rembourser (49,00 $ au plus)").click();
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "admin-membership", testInfo);

    await page.getByLabel("Montant à rembourser (USD)").fill("12,50");
    await page.getByLabel("Motif").fill("Prélèvement en double");
    await page.getByRole("button", { name: "Rembourser", exact: true }).click();
    await expect(page.getByText("Remboursement effectué")).toBeVisible();
    const refunds = page.getByRole("list", { name: "Remboursements, du plus récent au plus ancien" });
    await expect(refunds.getByRole("listitem")).toHaveCount(1);
    await expect(refunds).toContainText("12,50 $");
    await expect(refunds).toContainText("Prélèvement en double");
    await expect(refunds).toContainText(`par ${admin.email}`);

    // More than is left: refused on the form, which keeps what was typed.
    await page.getByText("Rembourser (36,50 $ au plus)").click();
    await page.getByLabel("Montant à rembourser (USD)").fill("40");
    await page.getByLabel("Motif").fill("Erreur technique");
    await page.getByRole("button", { name: "Rembourser", exact: true }).click();
    await expect(page.getByText("Montant trop élevé : 36,50 $ au plus.")).toBeVisible();
    await expect(page.getByLabel("Montant à rembourser (USD)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Motif")).toHaveValue("Erreur technique");
    await expect(refunds.getByRole("listitem")).toHaveCount(1);

    await page.getByRole("button", { name: "Résilier à la fin de la période" }).click();
    await expect(page.getByText("Résiliation programmée").first()).toBeVisible();
    await expect(history.getByRole("listitem").first()).toContainText(`par ${admin.email}`);
    await expect(history.getByRole("listitem").first()).toContainText("Résiliation demandée");
    await expect(page.getByRole("button", { name: "Résilier à la fin de la période" })).toHaveCount(0);

    // Ending it at once asks first; going back changes nothing.
    await page.getByRole("link", { name: "Résilier immédiatement" }).click();
    const step = page.getByRole("form", { name: "Résilier immédiatement cet abonnement ?" });
    await expect(step).toContainText("C'est définitif.");
    await screenshots(page, "admin-membership-cancel-confirm", testInfo);
    await step.getByRole("link", { name: "Ne pas résilier" }).click();
    await expect(page).toHaveURL(`/admin/memberships/${membershipId}`);
    await expect(cardOf(page, "Statut")).toContainText("Active");
    await page.getByRole("link", { name: "Résilier immédiatement" }).click();
    await step.getByRole("button", { name: "Oui, résilier immédiatement" }).click();
    await expect(page.getByText("Abonnement résilié")).toBeVisible();
    await expect(cardOf(page, "Statut")).toContainText("Résiliée");
    await expect(cardOf(page, "Statut")).toContainText("Cet abonnement est terminé : aucune action possible.");
    await expect(history.getByRole("listitem").first()).toContainText("Active → Résiliée");
    const { rows } = await e2eDatabase().query<{ status: string; refunded: string }>(
      `select m.status, (select sum(r.amount) from refunds r join invoices i on i.id = r.invoice_id
                          where i.membership_id = m.id) as refunded
         from memberships m where m.id = $1`,
      [membershipId],
    );
    expect(rows).toEqual([{ status: "cancelled", refunded: "1250" }]);
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, "admin-membership-cancelled", testInfo);

    await cardOf(page, "Membre").getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const customerMembership = cardOf(page, "Abonnement");
    await expect(customerMembership).toContainText("Résiliée");
    await screenshots(page, "admin-customer-membership", testInfo);
    await customerMembership.getByRole("link", { name: "Medium" }).click();
    await expect(page).toHaveURL(`/admin/memberships/${membershipId}`);

    await page.goto(`/admin/memberships?q=${traveller.lastName}&status=cancelled`);
    await expect(page.getByRole("region", { name: "Abonnements" })).toContainText(name);
  });
});

test("sends visitors to sign in and members home, from both membership pages", async ({ page }) => {
  const paths = ["/admin/memberships", `/admin/memberships/${randomUUID()}`];
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
