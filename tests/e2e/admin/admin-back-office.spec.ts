import { randomUUID } from "node:crypto";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { signInAsNewAdmin, signInAsNewMember } from "../../support/e2e/auth-page";
import { emailSamples } from "~/features/admin/system/email-samples";
import { bookAndPay } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import {
  clientAddressFor,
  expect,
  expectNotice,
  seriousA11yViolations,
  test,
  uniqueEmail,
} from "../../support/e2e/fixtures";

const ADMIN_PAGES = ["/admin/clients", `/admin/clients/${randomUUID()}`, "/admin/messages"];

/** Checks the page with axe and for sideways scrolling at phone and desktop widths, keeping a screenshot of each. */
async function checkLayouts(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.mouse.move(0, 0); // axe checks the page at rest, not a button under the pointer
    expect(await seriousA11yViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}`, { path, contentType: "image/png" });
  }
}

/** Sends a message through the contact page's form; returns the name it was sent under. */
async function sendContactMessage(page: Page, { email, message }: { email: string; message: string }) {
  const firstName = `Ada${randomUUID().slice(0, 6)}`;
  await page.goto("/contact");
  await page.getByLabel("First name", { exact: true }).fill(firstName);
  await page.getByLabel("Last name", { exact: true }).fill("Lovelace");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Phone", { exact: true }).fill("+31 6 1234 5678");
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.getByRole("button", { name: "Submit Now" }).click();
  await expectNotice(page, "Message sent successfully!");
  return `${firstName} Lovelace`;
}

/** The message's card on /admin/messages, named by its sender. */
const messageCard = (page: Page, name: string): Locator =>
  page.getByRole("article", { name: new RegExp(`^${name} · `) });

async function messageStatus(email: string) {
  const { rows } = await e2eDatabase().query<{ status: string }>(
    "select status from contact_messages where email = $1",
    [email],
  );
  return rows.map((row) => row.status);
}

test.describe("the back office", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  // Each test books or writes, signs an admin up and walks through several pages.
  test.slow();

  test("an admin finds a client who booked by searching, with their orders and what they paid", async ({
    page,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const traveller = { firstName: "Hedy", lastName: `Lamarr-${id}`, email: `hedy.${id}@example.com` };
    const { orderId } = await bookAndPay(page, traveller);

    await signInAsNewAdmin(page);
    await page.goto("/admin");
    const quickAccess = page
      .getByRole("heading", { name: "Accès rapide" })
      .locator("xpath=ancestor::*[@data-slot='card']");
    for (const [name, href] of [
      ["Commandes", "/admin/orders"],
      ["Statistiques de ventes", "/admin/statistics"],
      ["Demandes RGPD", "/admin/data-requests"],
      ["Messages", "/admin/messages"],
    ]) {
      await expect(quickAccess.getByRole("link", { name, exact: true })).toHaveAttribute("href", href!);
    }
    await quickAccess.getByRole("link", { name: "Gestion des clients" }).click();
    await expect(page).toHaveURL("/admin/clients");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clients");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    const search = page.getByLabel(/Rechercher un client/);
    await search.fill("ha");
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saisissez au moins 3 caractères" })).toBeVisible();

    await search.fill(`LAMARR-${id.toUpperCase()}`);
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect(page).toHaveURL(`/admin/clients?q=LAMARR-${id.toUpperCase()}`);
    const list = page.getByRole("region", { name: "Liste des clients" });
    await expect(list.getByRole("row")).toHaveCount(2); // the header and the one client
    const row = list.getByRole("row").nth(1);
    await expect(row).toContainText(`Hedy Lamarr-${id}`);
    await expect(row).toContainText(traveller.email);
    // Two adults and a child at 11 dollars each, paid by card.
    await expect(row.getByRole("cell").nth(1)).toHaveText("1");
    await expect(row.getByRole("cell").nth(2)).toHaveText(/^33,00\s\$$/);
    await checkLayouts(page, testInfo, "admin-customers");

    await row.getByRole("link", { name: `Hedy Lamarr-${id}` }).click();
    await expect(page).toHaveURL(/\/admin\/clients\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hedy Lamarr-${id}`);
    const orders = page.getByRole("region", { name: "Commandes du client" });
    const { rows } = await e2eDatabase().query<{ order_number: string }>(
      "select order_number from orders where id = $1",
      [orderId],
    );
    const orderLink = orders.getByRole("link", { name: rows[0]!.order_number });
    await expect(orderLink).toHaveAttribute("href", `/admin/orders/${orderId}`);
    await expect(orders.getByText("Payée")).toBeVisible();
    await expect(page.getByText("Airport: Paris Orly - ORY")).toBeVisible();
    await checkLayouts(page, testInfo, "admin-customer");
  });

  test("an admin reads the mails the site sent, as their recipient got them, with their files", async ({
    page,
  }, testInfo) => {
    const email = uniqueEmail("outbox");
    await bookAndPay(page, { email });
    await signInAsNewAdmin(page);
    await page.goto("/admin");
    await page.getByRole("link", { name: "E-mails", exact: true }).click();
    await expect(page).toHaveURL("/admin/emails");
    await expect(page.getByRole("link", { name: "E-mails envoyés" })).toHaveAttribute("aria-current", "page");
    await page.getByLabel("Destinataire (tout ou partie de l'adresse)").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect(page).toHaveURL(/\/admin\/emails\?q=/);
    const list = page.getByRole("region", { name: "E-mails, du plus récent au plus ancien" });
    await expect(list.getByRole("link", { name: /^Your Fast Track booking FT-/ })).toHaveCount(1);
    await expect(list.getByRole("row").filter({ hasNotText: email })).toHaveCount(1); // the header only
    await checkLayouts(page, testInfo, "admin-outbox");

    await list.getByRole("link", { name: /^Your Fast Track booking FT-/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Your Fast Track booking FT-/);
    const mail = page.frameLocator('iframe[title^="Aperçu : Your Fast Track booking"]');
    await expect(mail.getByText("Your Fast Track is booked")).toBeVisible();
    const calendar = page.getByRole("link", { name: "fast-track.ics (text/calendar)" });
    const file = await page.request.get((await calendar.getAttribute("href"))!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain("text/calendar");
    expect(await file.text()).toContain("BEGIN:VCALENDAR");
    await checkLayouts(page, testInfo, "admin-outbox-mail");

    await page.goto("/admin/emails?q=nobody-at-all");
    await expect(page.getByText("Aucun e-mail pour cette adresse.")).toBeVisible();
  });

  test("an admin previews every e-mail the site sends, rendered with sample data", async ({ page }, testInfo) => {
    await signInAsNewAdmin(page);
    await page.goto("/admin/emails");
    await page.getByRole("link", { name: "Modèles" }).click();
    await expect(page).toHaveURL("/admin/emails?vue=modeles");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("E-mails");
    const templates = page.getByRole("navigation", { name: "Modèles d'e-mails" }).getByRole("link");
    await expect(templates).toHaveCount((await emailSamples("https://example.org")).length);
    const confirmation = page.frameLocator('iframe[title="Aperçu : Confirmation de réservation Fast Track"]');
    await expect(confirmation.getByText("Your Fast Track is booked")).toBeVisible();
    await expect(confirmation.getByRole("img", { name: /^Voucher QR code/ })).toBeVisible();
    await expect(page.getByText("fast-track.ics (text/calendar)")).toBeVisible();
    await checkLayouts(page, testInfo, "admin-emails");
  });

  test("an admin marks a contact message handled, and back to new", async ({ page }, testInfo) => {
    const email = uniqueEmail("back-office");
    const name = await sendContactMessage(page, { email, message: "First line\nSecond line <b>not bold</b>" });

    await signInAsNewAdmin(page);
    await page.goto("/admin");
    await page.getByRole("link", { name: "Messages", exact: true }).click();
    await expect(page).toHaveURL("/admin/messages");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Messages");
    const card = messageCard(page, name);
    await expect(card).toContainText("Nouveau");
    await expect(card).toContainText("Page Contact");
    // The text as typed: its line break kept, its markup shown rather than applied.
    expect(await card.locator("p", { hasText: "First line" }).innerText()).toBe(
      "First line\nSecond line <b>not bold</b>",
    );
    await expect(card.locator("b")).toHaveCount(0);
    await checkLayouts(page, testInfo, "admin-messages");

    await card.getByRole("button", { name: "Marquer comme traité" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Message marqué comme traité" })).toBeVisible();
    await expect(card).toContainText("Traité");
    expect(await messageStatus(email)).toEqual(["handled"]);

    await page.getByRole("navigation", { name: "Statut" }).getByRole("link", { name: "Nouveaux" }).click();
    await expect(page).toHaveURL("/admin/messages?kind=contact&status=new");
    await expect(card).toHaveCount(0);
    await page.getByRole("navigation", { name: "Statut" }).getByRole("link", { name: "Traités" }).click();
    await card.getByRole("button", { name: "Remettre en nouveau" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Message remis en nouveau" })).toBeVisible();
    await expect(page).toHaveURL("/admin/messages?kind=contact&status=handled");
    await expect(card).toHaveCount(0);
    expect(await messageStatus(email)).toEqual(["new"]);

    await page.getByRole("link", { name: /^Demandes de désinscription/ }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Demandes de désinscription" })).toBeVisible();
  });

  test("marking a message handled works without JavaScript", async ({ browser }, testInfo) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddressFor(`${testInfo.testId}#no-js`) },
    });
    const page = await context.newPage();
    const email = uniqueEmail("back-office-nojs");
    const name = await sendContactMessage(page, { email, message: "Sent without JavaScript" });

    await signInAsNewAdmin(page);
    await page.goto("/admin/messages?kind=contact&status=new");
    await messageCard(page, name).getByRole("button", { name: "Marquer comme traité" }).click();
    await expect(page).toHaveURL("/admin/messages?kind=contact&status=new");
    await expect(page.getByRole("status").filter({ hasText: "Message marqué comme traité" })).toBeVisible();
    await expect(messageCard(page, name)).toHaveCount(0);
    expect(await messageStatus(email)).toEqual(["handled"]);
    await context.close();
  });

  test("sends anonymous visitors to sign in, and members who are not admins home", async ({ page }) => {
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page, path).toHaveURL("/auth");
    }
    await signInAsNewMember(page);
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page, path).toHaveURL("/");
    }
  });
});
