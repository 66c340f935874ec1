import { randomUUID } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { signInAsNewAdmin, signInAsNewMember } from "../../support/e2e/auth-page";
import { bookAndPay, chooseEuros } from "../../support/e2e/booking-form";
import { e2eDatabase } from "../../support/e2e/database";
import { expect, seriousA11yViolations, test, uniqueEmail } from "../../support/e2e/fixtures";
import { companyDay } from "~/lib/company-time";
import { formatAmountFr } from "~/lib/format-fr";
import type { CurrencyCode } from "~/lib/currency";

/**
 * "YYYY-MM-DD", "DD/MM/YYYY" of a random day of the years `from` to `to` (inclusive), long before any
 * test books: each test that moves orders there takes years of its own, so that no month (which the
 * statistics sum) holds another test's order.
 */
function dayLongAgo(from: number, to: number) {
  const first = Date.UTC(from, 0, 1);
  const days = (Date.UTC(to + 1, 0, 1) - first) / (24 * 3600_000);
  const day = new Date(first + Math.floor(Math.random() * days) * 24 * 3600_000);
  const iso = day.toISOString().slice(0, 10);
  return { iso, fr: iso.split("-").reverse().join("/") };
}

async function showPeriod(page: Page, from: string, to: string, granularity: "Jour" | "Semaine" | "Mois") {
  await page.getByLabel("Du", { exact: true }).fill(from);
  await page.getByLabel("Au (inclus)").fill(to);
  await page.getByLabel("Regrouper par").selectOption({ label: granularity });
  await page.getByRole("button", { name: "Afficher" }).click();
}

/** The cells after a row's heading (its period or airport). */
const rowCells = (page: Page, table: string, rowHeading: string) =>
  page
    .getByRole("region", { name: table })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: rowHeading, exact: true }) })
    .getByRole("cell");

/** Screenshots at phone and desktop widths, after checking that nothing scrolls sideways. */
async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
}

/** A currency's four lines as the page reads them, amounts as the French back office writes them. */
const revenueLines = (currency: CurrencyCode, [fastTracks, fees, refunds]: number[]) =>
  [
    `Fast-tracks${formatAmountFr(fastTracks!, currency)}`,
    `Cotisations${formatAmountFr(fees!, currency)}`,
    `Remboursements${formatAmountFr(-refunds!, currency)}`,
    `Net${formatAmountFr(fastTracks! + fees! - refunds!, currency)}`,
  ].join("");

test.describe("the revenue per currency", () => {
  test("shows fast tracks, fees, refunds and net for each currency, on the dashboard and for a period", async ({
    page,
  }, testInfo) => {
    test.slow(); // books and pays, then reads two pages at two widths
    await signInAsNewAdmin(page);
    await chooseEuros(page);
    const { orderId } = await bookAndPay(page, { email: uniqueEmail("revenue") });
    // The booking (33 € paid, a trial started) moved to a day no other test uses, with a paid fee, three
    // $33 orders of the same customer, and $11 refunded of one of them.
    const day = dayLongAgo(2001, 2009);
    const at = `${day.iso}T12:00:00Z`;
    const db = e2eDatabase();
    const {
      rows: [booked],
    } = await db.query<{ customer_id: string; membership_id: string }>(
      `update orders o set created_at = $2 where o.id = $1
       returning o.customer_id, (select m.id from memberships m where m.order_id = o.id) as membership_id`,
      [orderId, at],
    );
    await db.query(
      `insert into invoices (membership_id, period_start, period_end, amount, currency, status, attempts,
                             idempotency_key, provider_ref, paid_at, created_at)
       values ($1, $2, $2::timestamptz + interval '3 months', 4900, 'EUR', 'paid', 1, $3, $4, $2, $2)`,
      [booked!.membership_id, at, randomUUID(), `ch_${randomUUID()}`],
    );
    const dollars: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { rows } = await db.query<{ id: string }>(
        `insert into orders (order_number, customer_id, amount, currency, status, service_type, business, site,
                             idempotency_key, adults, created_at)
         values ($1, $2, 3300, 'USD', 'paid', 'Fast Track', 'Fast Track', 'E2E', $3, 3, $4) returning id`,
        [`FT-E2E-${randomUUID().slice(0, 8)}`, booked!.customer_id, randomUUID(), at],
      );
      dollars.push(rows[0]!.id);
    }
    await db.query(
      `insert into refunds (order_id, amount, currency, reason, idempotency_key, status, provider_ref, actor_label, created_at)
       values ($1, 1100, 'USD', 'Lane closed', $2, 'done', $3, 'admin@example.com', $4)`,
      [dollars[0], randomUUID(), `re_${randomUUID()}`, at],
    );

    await page.goto(`/admin/statistics?from=${day.iso}&to=${day.iso}&granularity=day`);
    await expect(page.getByTestId("revenue-USD")).toHaveText(revenueLines("USD", [9900, 0, 1100]));
    await expect(page.getByTestId("revenue-EUR")).toHaveText(revenueLines("EUR", [3300, 4900, 0]));
    await expect(page.getByTestId("revenue-GBP")).toHaveCount(0);
    await expect(rowCells(page, "Recettes en dollars américains (USD) par jour", day.fr)).toHaveText([
      /99,00\s\$/,
      /0,00\s\$/,
      /-11,00\s\$/,
      /88,00\s\$/,
    ]);
    await expect(rowCells(page, "Recettes en euros (EUR) par jour", "Total")).toHaveText([
      /33,00\s€/,
      /49,00\s€/,
      /0,00\s€/,
      /82,00\s€/,
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, testInfo, "statistics-revenue");

    // The dashboard counts everything, other tests' orders too: it must agree with the database's own sums.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/admin");
    const card = page.getByRole("region", { name: "Recettes par devise" });
    await expect(async () => {
      const { rows } = await db.query<{ currency: CurrencyCode; fast_tracks: string; fees: string; refunds: string }>(
        `select currency, sum(amount) filter (where kind = 'fast_track') as fast_tracks,
                coalesce(sum(amount) filter (where kind = 'fee'), 0) as fees,
                coalesce(sum(amount) filter (where kind = 'refund'), 0) as refunds
         from (select currency, 'fast_track' as kind, amount from orders where status in ('paid', 'completed', 'refunded')
               union all select currency, 'fee', amount from invoices where status in ('paid', 'refunded')
               union all select currency, 'refund', amount from refunds where status = 'done') money
         group by currency`,
      );
      await page.reload();
      for (const row of rows) {
        const figures = [row.fast_tracks, row.fees, row.refunds].map((amount) => Number(amount ?? 0));
        await expect(card.getByTestId(`revenue-${row.currency}`)).toHaveText(revenueLines(row.currency, figures), {
          timeout: 1_000,
        });
      }
    }).toPass({ timeout: 15_000 });
    // The spec's card stays as it is, beside them.
    await expect(page.getByRole("region", { name: "Indicateurs" })).toContainText(
      /Chiffre d'affaires[\d\s\u202f]+,\d{2}\s€Commandes payées ou terminées/,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, testInfo, "dashboard-revenue");
  });
});

test.describe("the sales statistics", () => {
  test("show a booking paid in euros on its day, its airport, and nothing on an empty period", async ({
    page,
    browser,
  }, testInfo) => {
    test.slow(); // signs up, books, pays, then looks at three periods with and without JavaScript
    await signInAsNewAdmin(page);
    await chooseEuros(page);
    const { orderNumber } = await bookAndPay(page, { email: uniqueEmail("stats") });

    await page.goto("/admin/statistics");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statistiques de ventes");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    const today = companyDay(new Date());
    await expect(page.getByLabel("Au (inclus)")).toHaveValue(today);
    await expect(page.getByLabel("Regrouper par")).toHaveValue("day");
    // Other tests book meanwhile: today's paid euro orders include this one, at least.
    const todayFr = today.split("-").reverse().join("/");
    const todaysEuros = rowCells(page, "Ventes en euros (EUR) par jour", todayFr);
    expect(Number(await todaysEuros.nth(1).textContent())).toBeGreaterThanOrEqual(1);
    await expect(page.getByRole("img", { name: /Chiffre d'affaires par jour en EUR/ })).toBeVisible();
    // Paying the first fast track of an address started a trial today.
    const todaysMemberships = rowCells(page, "Abonnements par jour", todayFr);
    expect(Number(await todaysMemberships.first().textContent())).toBeGreaterThanOrEqual(1);
    await expect(page.getByRole("img", { name: "Essais commencés par jour" })).toBeVisible();
    // That trial is a Medium one.
    const plans = "Essais, conversions et changements de formule";
    expect(Number(await rowCells(page, plans, "Medium").first().textContent())).toBeGreaterThanOrEqual(1);

    // This order alone, moved to a day long ago that no other test uses.
    const day = dayLongAgo(2010, 2019);
    await showPeriod(page, day.iso, day.iso, "Jour");
    await expect(page).toHaveURL(`/admin/statistics?from=${day.iso}&to=${day.iso}&granularity=day`);
    await expect(page.getByText("Aucune commande sur cette période.")).toBeVisible();
    await expect(page.getByText("Aucun abonnement commencé, converti ou terminé sur cette période.")).toBeVisible();
    for (const plan of ["Medium", "Premium"]) await expect(rowCells(page, plans, plan)).toHaveText(["0", "0", "0"]);
    await expect(page.getByText("Aucun accès fast-track gratuit utilisé sur cette période.")).toBeVisible();
    await e2eDatabase().query("update orders set created_at = $1 where order_number = $2", [
      `${day.iso}T12:00:00Z`,
      orderNumber,
    ]);
    await page.reload();

    const summary = page.getByRole("region", { name: `Du ${day.fr} au ${day.fr}, par jour` });
    for (const figure of ["Commandes1", "Payées1", "Non payées0", "Annulées ou remboursées0"]) {
      await expect(summary).toContainText(figure);
    }
    await expect(summary).toContainText(/Chiffre d'affaires EUR33,00\s€/);
    await expect(page.getByRole("heading", { name: "Ventes en USD" })).toHaveCount(0);
    await expect(rowCells(page, "Ventes en euros (EUR) par jour", day.fr)).toHaveText(["1", "1", "0", "0", /33,00\s€/]);
    await expect(rowCells(page, "Aéroports classés par commandes payées", "Paris Orly - ORY")).toHaveText([
      "1",
      "1",
      /33,00\s€/,
    ]);
    await expect(page.getByRole("img", { name: /Commandes par jour en EUR/ })).toHaveAccessibleDescription(
      `Du ${day.fr} au ${day.fr} : 1 commandes, dont 1 payées, 0 non payées, 0 annulées ou remboursées. Le détail est dans le tableau qui suit.`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: testInfo.outputPath(`statistics-${width}.png`), fullPage: true });
    }

    await showPeriod(page, `${day.iso.slice(0, 7)}-01`, day.iso, "Mois");
    const byMonth = "Ventes en euros (EUR) par mois";
    await expect(page.getByRole("region", { name: byMonth }).getByRole("row")).toHaveCount(3);
    await expect(rowCells(page, byMonth, "Total")).toHaveText(["1", "1", "0", "0", /33,00\s€/]);

    // The form is a plain GET form: it works without JavaScript.
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    const plain = await noScript.newPage();
    await plain.goto("/admin/statistics");
    await showPeriod(plain, day.iso, day.iso, "Semaine");
    await expect(plain).toHaveURL(`/admin/statistics?from=${day.iso}&to=${day.iso}&granularity=week`);
    await expect(plain.getByRole("region", { name: `Du ${day.fr} au ${day.fr}, par semaine` })).toContainText(
      "Payées1",
    );
    await noScript.close();

    await page.getByRole("link", { name: "Tableau de bord" }).click();
    await expect(page).toHaveURL("/admin");
  });

  test.describe("with a period that cannot be shown", () => {
    test.use({ allowedHttpErrors: [400] });

    test("says why in French, beside the field, and shows no figures", async ({ page }) => {
      test.slow(); // signs up and runs the admin CLI before it starts
      await signInAsNewAdmin(page);
      await page.goto("/admin/statistics?from=2026-03-10&to=2026-03-01&granularity=day");
      const to = page.getByLabel("Au (inclus)");
      await expect(page.getByText("La date de fin doit suivre la date de début")).toBeVisible();
      await expect(to).toHaveAttribute("aria-invalid", "true");
      await expect(to).toHaveValue("2026-03-01");
      await expect(page.getByText("Corrigez la période pour afficher les statistiques.")).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);

      await showPeriod(page, "2020-01-01", "2026-01-01", "Jour");
      await expect(
        page.getByRole("alert").filter({ hasText: "Par jour, la période ne peut pas dépasser un an" }),
      ).toBeVisible();
    });
  });

  test("are for admins only", async ({ page }) => {
    await page.goto("/admin/statistics");
    await expect(page).toHaveURL("/auth");
    await signInAsNewMember(page);
    await page.goto("/admin/statistics");
    await expect(page).toHaveURL("/");
  });
});
