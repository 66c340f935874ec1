import { randomUUID } from "node:crypto";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { bookAndPay } from "../../support/e2e/booking-form";
import { e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { cardOf, expect, test, waitForMail } from "../../support/e2e/fixtures";
import { companyDay as day } from "../../support/e2e/company-day";

test.describe("a membership from first fast track to cancellation", () => {
  // The admin role comes from the CLI, which needs the server's database on PostgreSQL.
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);
  test.slow();

  test("paying starts a trial the back office lists; the e-mailed unsubscribe link cancels it; a refund shows on the order", async ({
    page,
  }) => {
    const id = randomUUID().slice(0, 8);
    const traveller = { firstName: "Noor", lastName: `Visser-${id}`, email: `noor.${id}@example.com` };
    const { orderId, orderNumber } = await bookAndPay(page, traveller);

    // The trial, in the database and in the member's inbox, ends 3 days after the payment.
    const { rows } = await e2eDatabase().query<{ id: string; trial_ends_at: Date; status: string }>(
      "select id, trial_ends_at, status from memberships where order_id = $1",
      [orderId],
    );
    expect(rows).toHaveLength(1);
    const membership = rows[0]!;
    expect(membership.status).toBe("trialing");
    const started = await waitForMail(traveller.email, { subject: /free trial of .+ Medium has started$/ });
    expect(started.text).toContain(day(membership.trial_ends_at, "en-GB"));
    expect(started.text).toContain("$49");

    const admin = await signInAsNewAdmin(page);
    await page.goto(`/admin/memberships?q=${encodeURIComponent(traveller.email)}`);
    const results = page.getByRole("region", { name: "Abonnements" });
    await expect(results.getByRole("row")).toHaveCount(2);
    for (const text of [
      `${traveller.firstName} ${traveller.lastName}`,
      "Essai",
      day(membership.trial_ends_at, "fr-FR"),
    ]) {
      await expect(results).toContainText(text);
    }

    // The member cancels with the link the unsubscribe page e-mails them.
    await page.goto("/unsubscribe");
    await page.getByLabel("Email", { exact: true }).fill(traveller.email);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    const request = await waitForMail(traveller.email, { subject: /confirm your unsubscribe request$/ });
    const link = /https?:\/\/\S+\/unsubscribe\/confirm\?token=[\w-]+/.exec(request.text)?.[0];
    expect(link, request.text).toBeTruthy();
    await page.goto(link!);
    await page.getByRole("button", { name: "Confirm unsubscribe" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
    await expect(page.getByRole("status")).toContainText(`It ends on ${day(membership.trial_ends_at, "en-GB")}`);
    const cancelled = await waitForMail(traveller.email, { subject: /membership is cancelled$/ });
    expect(cancelled.text).toContain(`until ${day(membership.trial_ends_at, "en-GB")}`);
    expect(cancelled.text).toContain("you are not charged anything");

    await page.goto(`/admin/memberships/${membership.id}`);
    await expect(cardOf(page, "Statut")).toContainText("Résiliation programmée");
    const history = page.getByRole("list", { name: "Historique, du plus récent au plus ancien" });
    await expect(history.getByRole("listitem").first()).toContainText("par le client");

    // The fast track itself is refunded in full from its order page.
    await page.goto(`/admin/orders/${orderId}`);
    await page.getByLabel("Motif").fill("Vol annulé par la compagnie");
    await cardOf(page, "Remboursements").getByRole("button", { name: "Rembourser" }).click();
    await page.getByRole("button", { name: "Oui, tout rembourser" }).click();
    await expect(page.getByText("Remboursement effectué")).toBeVisible();
    await expect(cardOf(page, "Statut")).toContainText("Remboursée");
    await expect(cardOf(page, "Remboursements")).toContainText("Vol annulé par la compagnie");
    await expect(cardOf(page, "Remboursements")).toContainText(`par ${admin.email}`);
    const refund = await waitForMail(traveller.email, { subject: /we refunded \$33$/ });
    expect(refund.text).toContain(`Fast Track order ${orderNumber}`);
  });
});
