import { randomUUID } from "node:crypto";
import { endTrialAndBill } from "../../support/e2e/billing";
import { bookAndPay } from "../../support/e2e/booking-form";
import { billingCli, e2eDatabase, e2eDatabaseUrl, NEEDS_POSTGRES } from "../../support/e2e/database";
import { cardOf, expect, expectNotice, screenshots, test, waitForMail } from "../../support/e2e/fixtures";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { signInWithMailedCode } from "../../support/e2e/member-sign-in";

test.describe("changing plan from the account", () => {
  test.slow();
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);

  test("Medium to Premium at once for the prorated difference, then Premium to Medium when the quarter ends", async ({
    page,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const person = { firstName: "Lars", lastName: `Smit-${id}`, email: `lars.${id}@example.com` };
    const { orderId } = await bookAndPay(page, person);
    const { membershipId } = await endTrialAndBill(orderId);
    await signInWithMailedCode(page, person.email);

    const offer = page.getByTestId("plan-change");
    await expect(offer).toContainText("Premium gives 5 free fast-track accesses a month, from today.");
    const upgrade = offer.getByRole("button", { name: /^Upgrade to Premium – pay \$[\d.]+ now$/ });
    const shown = /\$([\d.]+)/.exec((await upgrade.textContent())!)![1]!;
    await screenshots(page, "account-plan-change", testInfo);
    await upgrade.click();
    await expectNotice(page, "Your membership is now Premium");
    await expect(page.getByTestId("free-accesses")).toHaveText(/^5 of 5 free accesses left in [A-Z][a-z]+$/);
    const { rows } = await e2eDatabase().query<{ plan: string; price: number; charged: number }>(
      `select plan, price, (select amount from invoices where membership_id = $1 and idempotency_key like 'plan-change:%') as charged
         from memberships where id = $1`,
      [membershipId],
    );
    expect(rows).toEqual([{ plan: "premium", price: 7900, charged: Math.round(Number(shown) * 100) }]);
    const mail = await waitForMail(person.email, { subject: /^Your membership is now Premium$/ });
    expect(mail.text).toContain(`Charged now: $${shown}`);

    // Back to Medium: kept until the quarter ends, made by the billing job then.
    await expect(offer).toContainText("You keep Premium until");
    await offer.getByRole("button", { name: /^Switch to Medium from / }).click();
    await expectNotice(page, "You keep Premium until then.");
    await expect(page.getByTestId("plan-change")).toContainText("Your plan changes to Medium on");
    await screenshots(page, "account-plan-change-scheduled", testInfo);
    // Called off, then asked for again.
    await offer.getByRole("button", { name: "Keep Premium" }).click();
    await expectNotice(page, "You keep Premium");
    const kept = await waitForMail(person.email, { subject: /^Your membership stays Premium$/ });
    expect(kept.text).toContain("The change to Medium you asked for is called off");
    await expect(
      e2eDatabase()
        .query("select scheduled_plan from memberships where id = $1", [membershipId])
        .then(({ rows }) => rows),
    ).resolves.toEqual([{ scheduled_plan: null }]);
    await offer.getByRole("button", { name: /^Switch to Medium from / }).click();
    await expect(page.getByTestId("plan-change")).toContainText("Your plan changes to Medium on");
    await e2eDatabase().query(`update memberships set current_period_end = now() - interval '1 minute' where id = $1`, [
      membershipId,
    ]);
    await expect(async () => {
      await billingCli().catch(() => undefined);
      const renewed = await e2eDatabase().query<{ plan: string; amount: number }>(
        `select m.plan, i.amount from memberships m join invoices i on i.membership_id = m.id
          where m.id = $1 order by i.created_at desc limit 1`,
        [membershipId],
      );
      expect(renewed.rows).toEqual([{ plan: "medium", amount: 4900 }]);
    }).toPass({ timeout: 60_000 });
  });

  test("the back office moves a trial to Premium: nothing charged, the history and the member's e-mail say so", async ({
    page,
    browser,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const person = { firstName: "Eva", lastName: `Mulder-${id}`, email: `eva.${id}@example.com` };
    const { orderId } = await bookAndPay(page, person);
    const { rows } = await e2eDatabase().query<{ id: string }>("select id from memberships where order_id = $1", [
      orderId,
    ]);
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAsNewAdmin(admin);
    await admin.goto(`/admin/memberships/${rows[0]!.id}`);
    await expect(admin.getByText("Pendant l'essai, rien n'est prélevé")).toBeVisible();
    await screenshots(admin, "admin-membership-plan-change", testInfo);
    await admin.getByRole("button", { name: "Passer en Premium" }).click();
    await expectNotice(admin, "Formule Premium");
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Abonnement Premium");
    await expect(cardOf(admin, "Historique")).toContainText("Formule : Medium → Premium");
    await adminContext.close();
    const mail = await waitForMail(person.email, { subject: /^Your membership is now Premium$/ });
    expect(mail.text).toMatch(/First charge: \$79 on/);
    const after = await e2eDatabase().query<{ plan: string; price: number; invoices: string }>(
      "select plan, price, (select count(*) from invoices where membership_id = memberships.id) as invoices from memberships where id = $1",
      [rows[0]!.id],
    );
    expect(after.rows).toEqual([{ plan: "premium", price: 7900, invoices: "0" }]);
  });
});

test.describe("calling off a move to a cheaper plan in the back office", () => {
  test.slow();
  test.skip(!e2eDatabaseUrl, NEEDS_POSTGRES);

  test("'Garder Premium' keeps the plan: the history and the member's e-mail say so", async ({
    page,
    browser,
  }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const person = { firstName: "Noor", lastName: `Visser-${id}`, email: `noor.${id}@example.com` };
    const { orderId } = await bookAndPay(page, person);
    const { membershipId } = await endTrialAndBill(orderId);
    // A Premium member who asked for Medium from the next quarter.
    await e2eDatabase().query(
      "update memberships set plan = 'premium', price = 7900, scheduled_plan = 'medium' where id = $1",
      [membershipId],
    );
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAsNewAdmin(admin);
    await admin.goto(`/admin/memberships/${membershipId}`);
    await expect(admin.getByText(/^Passage en Medium prévu le .*, à la fin de la période payée\.$/)).toBeVisible();
    await screenshots(admin, "admin-membership-plan-scheduled", testInfo);
    await admin.getByRole("button", { name: "Garder Premium" }).click();
    await expectNotice(admin, "Formule Premium conservée");
    await expect(cardOf(admin, "Historique")).toContainText("Formule : passage en Medium annulé, Premium conservée");
    await expect(admin.getByRole("button", { name: /^Passer en Medium/ })).toBeVisible();
    await adminContext.close();
    const { rows } = await e2eDatabase().query("select plan, scheduled_plan from memberships where id = $1", [
      membershipId,
    ]);
    expect(rows).toEqual([{ plan: "premium", scheduled_plan: null }]);
    const mail = await waitForMail(person.email, { subject: /^Your membership stays Premium$/ });
    expect(mail.text).toContain("Next fee: $79 on");
  });
});
