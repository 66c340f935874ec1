import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { billingCli, e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import {
  cardOf,
  expect,
  expectNotice,
  screenshots,
  seriousA11yViolations,
  test,
  uniqueEmail,
  waitForMail,
} from "../../support/e2e/fixtures";

// The back office's system page and its lists of failed work (ADR 026), on the suite's sandbox server.
// The tests count failed work across the whole database, so they run one after the other.

test.describe.configure({ mode: "serial" });

async function count(query: string) {
  const { rows } = await e2eDatabase().query<{ count: string }>(query);
  return Number(rows[0]!.count);
}

/** Axe finds nothing serious and the page does not scroll sideways, at phone and desktop widths. */
async function expectUsableLayouts(page: Page) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A mail the outbox gave up on, as the worker leaves it after its last attempt against a dead SMTP server. */
async function insertFailedMail(to: string, subject: string) {
  const { rows } = await e2eDatabase().query<{ id: string }>(
    `insert into outbox (id, "to", subject, text_body, status, attempts, last_error, failed_at)
     values ($1, $2, $3, 'Bonjour, voici votre confirmation.', 'failed', 8,
             'connect ECONNREFUSED 127.0.0.1:2525', now()) returning id`,
    [randomUUID(), to, subject],
  );
  return rows[0]!.id;
}

test.describe("the system page", () => {
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.slow();

  test("shows the gateway, the database, the build, the queues and the last billing run", async ({
    page,
  }, testInfo) => {
    await insertFailedMail(uniqueEmail("system-page"), "Votre reçu");
    // A billing run of its own, as an operator runs one; the server's scheduled run may hold the lock.
    await expect(async () => expect(await billingCli()).toContain("Billing as of")).toPass({ timeout: 30_000 });

    await signInAsNewAdmin(page);
    await page.goto("/admin");
    await screenshots(page, "admin-dashboard", testInfo);
    await page.getByRole("link", { name: "Système" }).click();
    await expect(page).toHaveURL("/admin/system");
    await expect(page.getByRole("heading", { level: 1, name: "Système" })).toBeVisible();

    const settings = cardOf(page, "Configuration");
    await expect(settings).toContainText("Paiementsbac à sable, aucun argent ne circule");
    await expect(settings).toContainText("Base de donnéesPostgreSQLConnexionsjusqu'à 10 par processusPooleraucun");
    await expect(settings).toContainText("Envoi des e-mailsSMTP configuré");
    const build = JSON.parse(readFileSync("build/build-info.json", "utf8")) as {
      version: string;
      commit: string | null;
    };
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(build.version).toBe(version);
    await expect(settings).toContainText(`Version${version}Commit${build.commit?.slice(0, 12) ?? "inconnu"}`);

    const queues = cardOf(page, "Files d'attente");
    const failedMails = await count("select count(*) from outbox where status = 'failed'");
    const failedEvents = await count("select count(*) from failed_provider_events");
    expect(failedMails).toBeGreaterThan(0);
    await expect(queues).toContainText(`E-mails en échec${failedMails}Voir et renvoyer`);
    await expect(queues).toContainText(`Événements Stripe en échec${failedEvents}`);

    await expect(cardOf(page, "Rétention des données")).toContainText(
      "Pas planifiée sur ce serveur : npm run retention",
    );
    const billing = cardOf(page, "Facturation des abonnements");
    await expect(billing).toContainText("Toutes les 15 minutes sur ce serveur, ou à la main : npm run billing");
    await expect(billing.getByText("Dernière exécution")).toBeVisible();
    await expect(
      billing.getByRole("region", { name: "Dernières exécutions : Facturation des abonnements" }),
    ).toContainText("Terminée");

    await expectUsableLayouts(page);
    await screenshots(page, "admin-system", testInfo);
  });

  test("an admin sees a failed mail with its error, sends it again, and it is delivered once", async ({
    page,
  }, testInfo) => {
    const to = uniqueEmail("failed-mail");
    const subject = `Votre voucher ${randomUUID().slice(0, 6)}`;
    const id = await insertFailedMail(to, subject);

    await signInAsNewAdmin(page);
    await page.goto("/admin/system");
    await cardOf(page, "Files d'attente").getByRole("link", { name: "Voir et renvoyer" }).click();
    await expect(page).toHaveURL("/admin/system/failed-emails");
    const mail = page.getByRole("article", { name: `${subject} · ${to}` });
    await expect(mail).toContainText("connect ECONNREFUSED 127.0.0.1:2525");
    await expect(mail).toContainText("après 8 tentatives");
    await expectUsableLayouts(page);
    await screenshots(page, "admin-failed-emails", testInfo);

    await mail.getByRole("button", { name: "Renvoyer" }).click();
    await expectNotice(page, "E-mail remis en file d'attente");
    await expect(mail).toHaveCount(0);

    const delivered = await waitForMail(to, { subject });
    expect(delivered.text).toContain("Bonjour, voici votre confirmation.");
    await expect
      .poll(async () => (await e2eDatabase().query("select status from outbox where id = $1", [id])).rows[0]?.status)
      .toBe("sent");
    const { rows } = await e2eDatabase().query<{ attempts: number; retried_by: string; retried_at: Date }>(
      "select attempts, retried_by, retried_at from outbox where id = $1",
      [id],
    );
    expect(rows[0]).toMatchObject({ attempts: 1, retried_by: expect.stringMatching(/@/) });
    expect(rows[0]!.retried_at).toBeInstanceOf(Date);
  });

  test("lists a failed Stripe event with its error; this sandbox server says it cannot retry it", async ({
    page,
  }, testInfo) => {
    const eventId = `evt_${randomUUID().replaceAll("-", "")}`;
    await e2eDatabase().query(
      `insert into failed_provider_events (id, provider, type, object_ref, last_error, attempts)
       values ($1, 'stripe', 'invoice.paid', 'in_1Example', 'Stripe did not answer within 10000 ms', 3)`,
      [eventId],
    );
    try {
      await signInAsNewAdmin(page);
      await page.goto("/admin/system");
      await cardOf(page, "Files d'attente").getByRole("link", { name: "Voir et relancer" }).click();
      await expect(page).toHaveURL("/admin/system/failed-events");
      const event = page.getByRole("article", { name: `invoice.paid · ${eventId}` });
      await expect(event).toContainText("Stripe did not answer within 10000 ms");
      await expect(event).toContainText("Objet in_1Example");
      await expect(event).toContainText("3 tentatives");
      await expect(
        page.getByRole("status").filter({ hasText: "Stripe n'est pas configuré sur ce serveur" }),
      ).toBeVisible();
      await expect(event.getByRole("button", { name: "Relancer" })).toHaveCount(0);
      await expectUsableLayouts(page);
      await screenshots(page, "admin-failed-events-sandbox", testInfo);
    } finally {
      await e2eDatabase().query("delete from failed_provider_events where id = $1", [eventId]);
    }
  });
});
