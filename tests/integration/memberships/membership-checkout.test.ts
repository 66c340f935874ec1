import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers, membershipEvents, memberships, outbox } from "~/db/schema";
import { checkoutConsentWording } from "~/features/membership-checkout/checkout-terms";
import { startMembershipCheckout } from "~/features/membership-checkout/membership-checkout.server";
import type { CardFormGateway } from "~/features/payments/gateway";
import { createSandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { companyDaysLater } from "~/lib/company-time";
import { action } from "~/routes/membership-checkout";
import { bookingTestDatabase, rowCounts } from "../../support/integration/booking-helpers";
import { formRequest } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";

const db = bookingTestDatabase();
const origin = "https://site.test";
// The last day of a February: the trial ends in March, three Amsterdam days later.
const NOW = new Date("2027-02-28T10:15:00Z");
const GOOD_CARD = { number: "4242424242424242", expiryMonth: 6, expiryYear: 2030, cvv: "123" };
const DECLINED_CARD = { ...GOOD_CARD, number: "4000000000000002" };

/** The sandbox, counting the cards it is asked to check. */
function countingSandbox() {
  const sandbox = createSandboxGateway();
  const gateway: CardFormGateway & { checks: number } = {
    ...sandbox,
    checks: 0,
    saveCard(request) {
      gateway.checks += 1;
      return sandbox.saveCard(request);
    },
  };
  return gateway;
}

function checkout(gateway: CardFormGateway, overrides: Partial<Parameters<typeof startMembershipCheckout>[2]> = {}) {
  return startMembershipCheckout(db(), gateway, {
    fullName: "Lotte de Wit",
    email: "Lotte@Example.com",
    plan: "premium",
    currency: "EUR",
    card: GOOD_CARD,
    checkoutKey: randomUUID(),
    origin,
    now: NOW,
    ...overrides,
  });
}

describe("the membership checkout", () => {
  it("starts the chosen plan's trial on a kept card, with the customer, the consent, its history and the contract e-mail", async () => {
    const gateway = countingSandbox();
    const outcome = await checkout(gateway);
    expect(outcome.kind).toBe("started");
    const [membership] = await db().select().from(memberships);
    expect(membership).toMatchObject({
      email: "lotte@example.com",
      orderId: null,
      plan: "premium",
      currency: "EUR",
      price: 7900,
      status: "trialing",
      cardBrand: "Visa",
      cardLast4: "4242",
      consentWording: checkoutConsentWording("premium"),
      consentedAt: NOW,
    });
    expect(membership!.trialEndsAt).toEqual(companyDaysLater(NOW, 3));
    expect(membership!.trialEndsAt.toISOString()).toBe("2027-03-03T10:15:00.000Z");
    const [customer] = await db().select().from(customers);
    expect(customer).toMatchObject({ fullName: "Lotte de Wit", email: "lotte@example.com" });
    expect(membership!.customerId).toBe(customer!.id);
    expect(await db().select().from(membershipEvents)).toHaveLength(1);

    const mails = await db().select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("lotte@example.com");
    expect(mails[0]!.subject).toMatch(/free trial of .+ Premium has started$/);
    expect(mails[0]!.textBody).toContain("€79 on 3 March 2027, to your Visa ending 4242");
    expect(mails[0]!.textBody).toContain(checkoutConsentWording("premium"));
    expect(mails[0]!.textBody).toContain("until 14 March 2027");
    expect(mails[0]!.attachments?.map((file) => file.filename)).toEqual(["terms-and-conditions.html"]);
  });

  it("answers the same form sent twice, one after the other or at once, with the one trial it started", async () => {
    const gateway = countingSandbox();
    const checkoutKey = randomUUID();
    const first = await checkout(gateway, { checkoutKey });
    const again = await checkout(gateway, { checkoutKey });
    expect(again).toEqual(first);

    await db().delete(membershipEvents);
    await db().delete(memberships);
    await db().delete(outbox);
    const key = randomUUID();
    const atOnce = await Promise.all(
      Array.from({ length: 5 }, () => checkout(gateway, { email: "sem@example.com", checkoutKey: key })),
    );
    expect(new Set(atOnce.map((outcome) => JSON.stringify(outcome))).size).toBe(1);
    expect(atOnce[0]!.kind).toBe("started");
    expect(await db().select().from(memberships)).toHaveLength(1);
    expect(await db().select().from(outbox)).toHaveLength(1);
  });

  it("gives an address one trial: ten forms at once start one, and a later one is refused before its card is checked", async () => {
    const gateway = countingSandbox();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => checkout(gateway)));
    expect(outcomes.filter((outcome) => outcome.kind === "started")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === "had-trial")).toHaveLength(9);
    expect(await db().select().from(memberships)).toHaveLength(1);
    expect(await db().select().from(outbox)).toHaveLength(1);

    const checks = gateway.checks;
    expect(await checkout(gateway, { email: "LOTTE@example.com", plan: "medium" })).toEqual({ kind: "had-trial" });
    expect(gateway.checks).toBe(checks);
  });

  it("writes nothing when the bank declines the card, and says why", async () => {
    const outcome = await checkout(countingSandbox(), { card: DECLINED_CARD });
    expect(outcome).toEqual({ kind: "refused", message: "Your card was declined." });
    expect(Object.values(await rowCounts(db())).every((count) => count === 0)).toBe(true);
  });
});

describe("the membership checkout's form", () => {
  const card = {
    step: "card",
    fullName: "Lotte de Wit",
    email: "lotte@example.com",
    plan: "premium",
    currency: "EUR",
    cardNumber: "4242 4242 4242 4242",
    expiryMonth: "06",
    expiryYear: String(new Date().getFullYear() + 2),
    cvv: "123",
    consent: "on",
    checkoutKey: randomUUID(),
  };
  const post = (fields: Record<string, string>) =>
    routeResult(() => action(routeArgs(formRequest("/membership-checkout", fields))));

  it("refuses bad input, a price of the visitor's own, or no consent, writing nothing", async () => {
    const { consent: _, ...withoutConsent } = card;
    for (const fields of [
      withoutConsent,
      { ...card, plan: "gold" },
      { ...card, currency: "XYZ" },
      { ...card, email: "not-an-address" },
      { ...card, checkoutKey: "1" },
      { ...card, price: "0" },
      { step: "details", fullName: "", email: "x@example.com", plan: "premium", currency: "EUR" },
    ]) {
      const result = await post(fields);
      expect(result.status, JSON.stringify(fields)).toBe(400);
    }
    expect(Object.values(await rowCounts(db())).every((count) => count === 0)).toBe(true);
  });

  it("carries the first step's details into the card step, and then starts the trial", async () => {
    const details = await post({
      step: "details",
      fullName: "Lotte de Wit",
      email: "lotte@example.com",
      plan: "premium",
      currency: "EUR",
    });
    expect(details.status).toBe(200);
    expect(details.data).toMatchObject({
      step: "card",
      details: { fullName: "Lotte de Wit", email: "lotte@example.com" },
    });
    const started = await post(card);
    expect(started.status).toBe(302);
    const [membership] = await db()
      .select({ id: memberships.id })
      .from(memberships)
      .where(eq(memberships.email, "lotte@example.com"));
    expect(started.location).toBe(`/membership-checkout/${membership!.id}`);

    const again = await post({
      step: "details",
      fullName: "Lotte",
      email: "LOTTE@example.com",
      plan: "medium",
      currency: "USD",
    });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.data)).toContain("has already had its free trial");
  });
});
