import { randomUUID } from "node:crypto";
import { addMinutes } from "date-fns";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, membershipEvents, memberships, outbox } from "~/db/schema";
import { runBilling } from "~/features/memberships/billing-job.server";
import { expiryYears } from "~/features/payments/card";
import { RATE_LIMIT_TIERS, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { action as accountAction, loader as accountLoader } from "~/routes/account";
import { book, membershipOf } from "../../support/integration/personal-data-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { createSignedInAccount, formRequest, pageRequest, toastOf } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const db = installedTestDatabase();
const origin = "https://site.test";

/** A signed-in member in their trial, paid with the sandbox's good card. */
async function signedInMember() {
  const account = await createSignedInAccount(db());
  const order = await book(db(), { email: account.email, pay: "paid" });
  return { ...account, membershipId: (await membershipOf(db(), order.id)).id };
}

const post = (fields: Record<string, string>, cookie: string) =>
  routeResult(() => accountAction(routeArgs(formRequest("/account", fields, { cookie }))));

function newCard(number: string, formKey = randomUUID()) {
  return {
    intent: "replace-card",
    formKey,
    cardNumber: number,
    expiryMonth: "12",
    expiryYear: String(expiryYears(new Date())[2]),
    cvv: "123",
  };
}

async function membership(id: string) {
  const [row] = await db().select().from(memberships).where(eq(memberships.id, id));
  return row!;
}

/** Runs the billing job at the trial's end: the member's card is charged the first fee. */
async function billAtTrialEnd(membershipId: string) {
  const { currentPeriodEnd } = await membership(membershipId);
  return runBilling(db(), sandboxGateway, { now: addMinutes(currentPeriodEnd, 1), origin });
}

async function openFee(membershipId: string) {
  const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, membershipId));
  return invoice!;
}

describe(`the member's card and unpaid fee, on ${testDatabaseKind()}`, () => {
  it("replaces the card without charging it, once however often the form is sent, and notes it in the history", async () => {
    const member = await signedInMember();
    const form = newCard("5555 5555 5555 4444");
    for (let send = 0; send < 2; send++) {
      const answer = await post(form, member.cookie);
      expect(answer).toMatchObject({ status: 302, location: "/account" });
      expect(toastOf(answer.headers)).toMatchObject({ title: "Your card is replaced" });
    }
    const replaced = await membership(member.membershipId);
    expect(replaced).toMatchObject({ cardBrand: "Mastercard", cardLast4: "4444", status: "trialing" });
    expect(replaced.paymentMethodRef).toMatch(/^pm_sandbox_pays_/);
    const notes = await db()
      .select()
      .from(membershipEvents)
      .where(
        and(eq(membershipEvents.membershipId, member.membershipId), like(membershipEvents.note, "Carte remplacée%")),
      );
    expect(notes).toHaveLength(1);
    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    expect(JSON.stringify(page.data)).toContain("Mastercard ending 4444");
  });

  it("keeps the old card when the bank refuses the new one or the form is wrong, and says why", async () => {
    const member = await signedInMember();
    const before = await membership(member.membershipId);
    const refused = await post(newCard("4000000000000002"), member.cookie);
    expect(refused.status).toBe(402);
    expect(refused.data).toMatchObject({ result: { error: { "": ["Your card was declined."] } } });
    // The number and CVV are never sent back; a fresh key lets another card be tried.
    expect(JSON.stringify(refused.data)).not.toContain("4000000000000002");
    expect((refused.data as { formKey: string }).formKey).toMatch(/^[0-9a-f-]{36}$/);
    const wrong = await post(newCard("4242 4242 4242 4241"), member.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      result: { error: { cardNumber: ["Card number is not valid. Please check it and try again."] } },
    });
    expect(await membership(member.membershipId)).toEqual(before);
  });

  it("after a declined renewal, pays the open fee at once with a new card: active again, numbered, one receipt", async () => {
    const member = await signedInMember();
    // A card whose renewals are declined (the sandbox's 0346), then the trial ends.
    await post(newCard("4999990000000346"), member.cookie);
    expect((await billAtTrialEnd(member.membershipId)).counts).toMatchObject({ declined: 1 });
    expect(await membership(member.membershipId)).toMatchObject({ status: "past_due" });
    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    expect(page.data).toMatchObject({
      membership: { status: "Payment due", payNow: { label: "Pay €49 now", page: null } },
    });

    const declined = await post({ intent: "pay-fee" }, member.cookie);
    expect(toastOf(declined.headers)).toMatchObject({ type: "error", title: "Your card was not charged" });
    expect(await openFee(member.membershipId)).toMatchObject({ status: "open", attempts: 2 });

    await post(newCard("4242424242424242"), member.cookie);
    const paid = await post({ intent: "pay-fee" }, member.cookie);
    expect(toastOf(paid.headers)).toMatchObject({ type: "success", title: "Thank you: your fee is paid" });
    expect(await membership(member.membershipId)).toMatchObject({ status: "active", graceEndsAt: null });
    const fee = await openFee(member.membershipId);
    expect(fee).toMatchObject({ status: "paid", attempts: 3, chargingSince: null });
    expect(fee.number).toMatch(/^\d{4}-\d{6}$/);

    // A second press finds nothing due and charges nothing.
    const again = await post({ intent: "pay-fee" }, member.cookie);
    expect(toastOf(again.headers)).toMatchObject({ title: "Nothing is due" });
    expect(await openFee(member.membershipId)).toMatchObject({ attempts: 3 });
    const receipts = await db()
      .select({ text: outbox.textBody })
      .from(outbox)
      .where(and(eq(outbox.to, member.email), like(outbox.subject, "Receipt:%")));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain(fee.number!);
  });

  it("asks the member to confirm a renewal the bank holds (the sandbox's 3184), and the member's confirmation pays it", async () => {
    const member = await signedInMember();
    await post(newCard("4000002760003184"), member.cookie);
    expect((await billAtTrialEnd(member.membershipId)).counts).toMatchObject({ declined: 1 });
    expect(await membership(member.membershipId)).toMatchObject({ status: "past_due" });
    // Not retried by the job: only the member can let it through.
    expect(await openFee(member.membershipId)).toMatchObject({
      lastOutcome: "authentication_required",
      nextAttemptAt: null,
    });
    const mails = await db().select({ subject: outbox.subject }).from(outbox).where(eq(outbox.to, member.email));
    expect(mails.map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^Confirm your payment of €49 /));
    expect(mails.map((mail) => mail.subject)).not.toContainEqual(expect.stringMatching(/^Payment reminder/));
    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    expect(page.data).toMatchObject({
      membership: {
        next: expect.stringContaining("Your bank asks you to confirm the payment of €49"),
        payNow: { label: "Confirm the payment of €49", page: null },
      },
    });

    const paid = await post({ intent: "pay-fee" }, member.cookie);
    expect(toastOf(paid.headers)).toMatchObject({ type: "success", title: "Thank you: your fee is paid" });
    expect(await membership(member.membershipId)).toMatchObject({ status: "active" });
    expect(await openFee(member.membershipId)).toMatchObject({ status: "paid", attempts: 2 });
  });

  it("counts each press of Pay now against the payment limit, so a script cannot try the card without end", async () => {
    const member = await signedInMember();
    await post(newCard("4999990000000346"), member.cookie);
    await billAtTrialEnd(member.membershipId);
    const address = "10.99.0.1";
    const press = () =>
      routeResult(() =>
        accountAction(routeArgs(formRequest("/account", { intent: "pay-fee" }, { cookie: member.cookie, address }))),
      );
    for (let attempt = 0; attempt < RATE_LIMIT_TIERS.payment.max; attempt++) {
      expect(toastOf((await press()).headers)).toMatchObject({ title: "Your card was not charged" });
    }
    expect(toastOf((await press()).headers)).toMatchObject({ type: "error", title: TOO_MANY_REQUESTS });
    expect(await openFee(member.membershipId)).toMatchObject({ attempts: 1 + RATE_LIMIT_TIERS.payment.max });
  });

  it("leaves a fee a billing run is charging right now to that run", async () => {
    const member = await signedInMember();
    await post(newCard("4999990000000346"), member.cookie);
    await billAtTrialEnd(member.membershipId);
    const fee = await openFee(member.membershipId);
    await db().update(invoices).set({ chargingSince: new Date() }).where(eq(invoices.id, fee.id));
    const busy = await post({ intent: "pay-fee" }, member.cookie);
    expect(toastOf(busy.headers)).toMatchObject({ title: "This fee is being charged right now" });
    expect(await openFee(member.membershipId)).toMatchObject({ status: "open", attempts: fee.attempts });
  });
});
