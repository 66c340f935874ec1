import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import pg from "pg";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { startFakeStripe, type FakeStripe } from "../../support/stripe/fake-stripe";
import { createAccount } from "../../support/accounts";
import { confirmAddress, signIn, signUp } from "../../support/e2e/auth-page";
import { bookAndReachPayment, consentBox } from "../../support/e2e/booking-form";
import { NEEDS_POSTGRES } from "../../support/e2e/database";
import { bookingFormFields } from "../../support/booking-fields";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import { RATE_LIMIT_TIERS } from "~/lib/rate-limit.server";
import { askForCode, codeOf, linkOf, signInWithMailedCode } from "../../support/e2e/member-sign-in";
import {
  cardOf,
  expect,
  expectNotice,
  mailsTo,
  screenshots,
  seriousA11yViolations,
  test,
  uniqueEmail,
  waitForMail,
} from "../../support/e2e/fixtures";

// The site in Stripe mode (ADR 018), against the fake Stripe API and its Stripe.js that the test
// starts: a server of its own, beside the suite's sandbox one, with Stripe's webhook pointed at it.

interface StripeSite {
  fake: FakeStripe;
  server: ProductionServer;
  /** What reached our server from the browser: every request's URL and body. */
  sentToUs: string[];
}

const stripeTest = test.extend<{ sentToUs: string[] }, { stripeSite: StripeSite }>({
  stripeSite: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from its first parameter.
    async ({}, use) => {
      // Its statement descriptor set in the dashboard as the going-live steps say.
      const fake = await startFakeStripe({ statementDescriptor: STATEMENT_DESCRIPTOR });
      const stripeEnv = {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.origin,
        STRIPE_JS_URL: fake.jsUrl,
      };
      // As an operator going live: the products and prices first.
      await promisify(execFile)("npm", ["run", "--silent", "stripe:setup"], { env: { ...process.env, ...stripeEnv } });
      const server = await startProductionServer(process.env.E2E_DATABASE_URL ? "postgres" : "pglite", {
        ...stripeEnv,
        TRUST_PROXY: "loopback",
        SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 20_000}`,
        RETENTION_INTERVAL_MINUTES: "0",
      });
      fake.setWebhookUrl(`${server.baseUrl}/stripe/webhook`);
      await use({ fake, server, sentToUs: [] });
      await server.stop();
      await server.dispose();
      await fake.close();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ stripeSite }, provide) => provide(stripeSite.server.baseUrl),
  sentToUs: async ({ page, stripeSite }, provide) => {
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(stripeSite.server.baseUrl))
        sent.push(`${request.url()} ${request.postData() ?? ""}`);
    });
    await provide(sent);
  },
});

/** Signs `page` in as a new account made admin with the real CLI, on the Stripe site's own database. */
function signInAsAdmin(page: Page, server: ProductionServer) {
  return createAccount(
    {
      signUp: (person) => signUp(page, person),
      grantAdmin: async (address) => {
        await confirmAddress(page, address);
        await promisify(execFile)("npm", ["run", "--silent", "admin:grant", "--", address], {
          env: {
            ...process.env,
            DATABASE_URL: server.databaseUrl,
            APP_SECRET: server.appSecret,
            SITE_URL: server.baseUrl,
          },
        });
      },
      signIn: (person) => signIn(page, person),
    },
    { admin: true },
  );
}

/** The subscription the payment of `orderId` started, from the fake's events. */
function subscriptionStartedBy(fake: FakeStripe, orderId: string) {
  const started = fake.events.find(
    (event) =>
      event.type === "customer.subscription.created" &&
      (event.data.object.metadata as Record<string, string>).orderId === orderId,
  );
  return started!.data.object.id as string;
}

/** Stripe's API as an operator calls it (its dashboard): GET, or POST with a form body. */
function stripeApiOf(fake: FakeStripe) {
  return (path: string, body?: string) =>
    fetch(`${fake.origin}${path}`, {
      method: body ? "POST" : "GET",
      headers: { Authorization: `Bearer ${fake.secretKey}`, "Content-Type": "application/x-www-form-urlencoded" },
      body,
    }).then((response) => response.json() as Promise<Record<string, unknown>>);
}

/** Stripe's card field, as the card holder fills it. */
async function typeCard(page: Page, number: string) {
  const field = page.locator("[data-fake-stripe-card]");
  await field.getByLabel("Card number").fill(number);
  await field.getByLabel("Expiration date").fill(`12 / ${String(new Date().getFullYear() + 2).slice(2)}`);
  await field.getByLabel("CVC").fill("123");
}

async function pressFinish(page: Page) {
  await consentBox(page).check();
  await page.getByRole("button", { name: "FINISH" }).click();
}

stripeTest(
  "pays with Stripe's card field: the number never reaches our server, the trial starts",
  async ({ page, stripeSite, sentToUs }, testInfo) => {
    const email = uniqueEmail("stripe");
    await bookAndReachPayment(page, { email });
    const policy = (await page.request.get(page.url())).headers()["content-security-policy"]!;
    for (const directive of ["script-src", "frame-src", "connect-src"]) {
      expect(policy.split("; ").find((part) => part.startsWith(directive))).toContain(stripeSite.fake.origin);
    }
    await expect(page.getByRole("group", { name: "Card Details" }).getByLabel("Card number")).toBeVisible();
    await expect(page.getByLabel("Card Number", { exact: true })).toHaveCount(0);
    await expect(page.getByText("Visa or Mastercard only")).toBeVisible();
    await expect(page.getByTestId("trial-note")).toContainText("3-day free trial");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await typeCard(page, "4242 4242 4242 4242");
    await screenshots(page, "stripe-payment", testInfo);

    // Without the ticked box, no payment is opened: not by the page, nor by a script that skips it.
    const asked = stripeSite.fake.requests.length;
    await page.getByRole("button", { name: /^FINISH – pay \$33 now$/ }).click();
    await expect(page.getByRole("alert")).toContainText("Please tick the box to ask for your order to start now");
    const skipped = await page.request.post(`${page.url()}/open`, { form: {} });
    expect(skipped.status()).toBe(400);
    expect(await skipped.json()).toEqual({ error: expect.stringContaining("Please tick the box") });
    const opened = stripeSite.fake.requests.slice(asked).filter((request) => request.path === "/v1/payment_intents");
    expect(opened).toEqual([]);

    await pressFinish(page);
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await expect(cardOf(page, "Your Membership")).toContainText("Visa ending 4242");
    await waitForMail(email, { subject: /Booking Confirmed|Your Fast Track/i });
    await screenshots(page, "stripe-confirmation", testInfo);

    expect(sentToUs.join("\n")).not.toMatch(/4242 ?4242 ?4242 ?4242/);
    const secretRequests = stripeSite.fake.requests.filter((request) => request.key === "secret");
    expect(JSON.stringify(secretRequests)).not.toContain("4242424242424242");
    expect(stripeSite.server.output()).toContain('"payments":"stripe (test mode)"');
    // Stripe's events reached the real endpoint, raw body and signature intact, and were acknowledged.
    await stripeSite.fake.settled();
    const deliveries = stripeSite.fake.deliveries;
    expect(deliveries.map((delivery) => delivery.type)).toContain("payment_intent.succeeded");
    expect(deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
    expect(stripeSite.server.output()).not.toContain("4242424242424242");
  },
);

stripeTest(
  "counts a card payment once against the payment limit: when it is opened, not again when the page settles it",
  async ({ request, stripeSite }) => {
    const base = stripeSite.server.baseUrl;
    const post = (path: string, form: Record<string, string>, address: string) =>
      request.post(`${base}${path}`, { form, headers: { Origin: base, "X-Forwarded-For": address }, maxRedirects: 0 });
    const payer = "203.0.113.77";
    const { max } = RATE_LIMIT_TIERS.payment;
    for (let attempt = 0; attempt <= max; attempt++) {
      // Each booking from an address of its own: only the payments share one.
      const booked = await post("/fast-track-form", bookingFormFields(), `198.51.100.${attempt + 1}`);
      const orderId = /\/fast-track-payment\/([\w-]+)/.exec(booked.headers().location ?? "")?.[1];
      expect(orderId, `booking ${attempt}: ${booked.status()}`).toBeTruthy();
      const opened = await post(`/fast-track-payment/${orderId}/open`, { consent: "on" }, payer);
      if (attempt === max) {
        expect(opened.status()).toBe(429);
        break;
      }
      expect(opened.status(), `payment ${attempt + 1}`).toBe(200);
      // What the page posts once Stripe.js is done: the bank has no answer yet, so nothing is paid.
      expect((await post(`/fast-track-payment/${orderId}`, {}, payer)).status()).not.toBe(429);
    }
  },
);

stripeTest("runs the bank's 3-D Secure check before the booking is confirmed", async ({ page }, testInfo) => {
  await bookAndReachPayment(page, { email: uniqueEmail("three-d-secure") });
  await typeCard(page, "4000 0027 6000 3184");
  await pressFinish(page);
  const check = page.getByRole("dialog", { name: "3D Secure authentication" });
  await expect(check).toBeVisible();
  await screenshots(page, "stripe-3d-secure", testInfo);
  await check.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
});

stripeTest(
  "starts a Premium trial at the membership checkout: Stripe's card check with 3-D Secure, then a subscription with the trial's end",
  async ({ page, stripeSite, sentToUs }, testInfo) => {
    const email = uniqueEmail("stripe-checkout");
    const [askedBefore, eventsBefore] = [stripeSite.fake.requests.length, stripeSite.fake.events.length];
    const asked = (path: string) =>
      stripeSite.fake.requests.slice(askedBefore).filter((request) => request.path === path);
    await page.goto("/membership-checkout?plan=premium&currency=EUR");
    await page.getByLabel("Full name").fill("Lotte de Wit");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("group", { name: "Card Details" }).getByLabel("Card number")).toBeVisible();
    await typeCard(page, "4000 0027 6000 3184");
    const start = page.getByRole("button", { name: "Start free trial – then €79 every 3 months" });
    await start.click();
    await expect(page.getByRole("alert")).toContainText("Please tick the box to ask for your free trial to start now");
    await page.getByRole("checkbox", { name: /^I ask for my Premium membership's free trial/ }).check();
    await screenshots(page, "stripe-membership-checkout", testInfo);
    await start.click();
    await page
      .getByRole("dialog", { name: "3D Secure authentication" })
      .getByRole("button", { name: "Complete authentication" })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your free trial has started");
    await expect(page.getByText("charged to your Visa ending 3184")).toBeVisible();
    await waitForMail(email, { subject: /free trial of .+ Premium has started$/ });

    // At Stripe: the card was checked, never charged, and the subscription waits for the trial's end.
    // One customer, asked for under one key by both steps; one subscription; no payment.
    expect(new Set(asked("/v1/customers").map((request) => request.idempotencyKey)).size).toBe(1);
    expect(asked("/v1/subscriptions")).toHaveLength(1);
    expect(asked("/v1/payment_intents")).toEqual([]);
    await stripeSite.fake.settled();
    const subscription = stripeSite.fake.events
      .slice(eventsBefore)
      .find((event) => event.type === "customer.subscription.created")!.data.object as {
      status: string;
      trial_end: number;
      items: { data: { price: { lookup_key: string } }[] };
    };
    expect(subscription.status).toBe("trialing");
    expect(subscription.items.data[0]!.price.lookup_key).toMatch(/premium/);
    expect(subscription.items.data[0]!.price.lookup_key).toMatch(/eur/i);
    expect(subscription.trial_end * 1000).toBeGreaterThan(Date.now() + 2 * 24 * 3600 * 1000);
    expect(stripeSite.fake.deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
    expect(sentToUs.join("\n")).not.toMatch(/3184 ?$|4000 ?0027/m);
  },
);

stripeTest.describe("refused payments", () => {
  // A declined card is Stripe's 402; Stripe out of reach is our 503.
  stripeTest.use({ allowedHttpErrors: [402, 404, 503] });

  stripeTest("says why, keeps the order unpaid, and another card then pays", async ({ page }, testInfo) => {
    await bookAndReachPayment(page, { email: uniqueEmail("declined") });
    await typeCard(page, "4000 0000 0000 0002");
    await pressFinish(page);
    await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await screenshots(page, "stripe-declined", testInfo);

    await typeCard(page, "4000 0027 6000 3184");
    await pressFinish(page);
    await page
      .getByRole("dialog", { name: "3D Secure authentication" })
      .getByRole("button", { name: "Fail authentication" })
      .click();
    await expect(page.getByRole("alert")).toContainText("unable to authenticate");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();

    await typeCard(page, "5555 5555 5555 4444");
    await pressFinish(page);
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
  });

  stripeTest(
    "tells the card holder when Stripe cannot be reached, and charges nothing",
    async ({ page, stripeSite }) => {
      stripeTest.info().annotations.push({ type: "note", description: "the fake answers 500 to payment intents" });
      await bookAndReachPayment(page, { email: uniqueEmail("stripe-down") });
      stripeSite.fake.outage = { status: 500, paths: /^\/v1\/payment_intents$/ };
      try {
        await typeCard(page, "4242 4242 4242 4242");
        await pressFinish(page);
        await expect(page.getByRole("alert")).toHaveText(
          "We could not reach the payment provider, so nothing was charged. Please try again in a moment.",
        );
      } finally {
        stripeSite.fake.outage = undefined;
      }
      await pressFinish(page);
      await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    },
  );
});

stripeTest(
  "an admin finds the Stripe trial, cancels it at Stripe and refunds the order through Stripe",
  async ({ page, stripeSite }, testInfo) => {
    const databaseUrl = stripeSite.server.databaseUrl;
    stripeTest.skip(!databaseUrl, NEEDS_POSTGRES);
    const email = uniqueEmail("stripe-member");
    await bookAndReachPayment(page, { email, lastName: "Stripe" });
    const orderId = new URL(page.url()).pathname.split("/").pop()!;
    await typeCard(page, "4000 0027 6000 3184");
    await pressFinish(page);
    await page
      .getByRole("dialog", { name: "3D Secure authentication" })
      .getByRole("button", { name: "Complete authentication" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();

    const admin = await signInAsAdmin(page, stripeSite.server);
    await page.goto("/admin");
    await expect(page.getByRole("region", { name: "Indicateurs" })).toContainText("Paiements : Stripe, mode test");

    await page.goto(`/admin/memberships?q=${encodeURIComponent(email)}`);
    await page.getByRole("region", { name: "Abonnements" }).getByRole("link").first().click();
    const details = cardOf(page, "Abonnement");
    await expect(details).toContainText("Visa •••• 3184");
    await expect(details).toContainText(/Facturé par\s*Stripe \(abonnement sub_\w+\)/);
    const subscriptionRef = /sub_\w+/.exec((await details.textContent())!)![0];
    await page.getByRole("link", { name: "Résilier immédiatement" }).click();
    await page.getByRole("button", { name: "Oui, résilier immédiatement" }).click();
    await expect(page.getByText("Abonnement résilié")).toBeVisible();
    await expect(cardOf(page, "Statut")).toContainText("Résiliée");
    expect(await stripeApiOf(stripeSite.fake)(`/v1/subscriptions/${subscriptionRef}`)).toMatchObject({
      status: "canceled",
    });
    await screenshots(page, "stripe-admin-membership", testInfo);

    await page.goto(`/admin/orders/${orderId}`);
    const refunds = cardOf(page, "Remboursements");
    await page.getByLabel("Motif").fill("Vol annulé");
    await refunds.getByRole("button", { name: "Rembourser" }).click();
    await page.getByRole("button", { name: "Oui, tout rembourser" }).click();
    await expect(page.getByText("Remboursement effectué")).toBeVisible();
    await expect(cardOf(page, "Statut")).toContainText("Remboursée");
    await expect(refunds).toContainText(`par ${admin.email}`);
    const refundCalls = stripeSite.fake.requests.filter(
      (request) => request.method === "POST" && request.path === "/v1/refunds",
    );
    expect(refundCalls.at(-1)?.params).toMatchObject({ payment_intent: expect.stringMatching(/^pi_/) });
  },
);

stripeTest.describe("a Stripe member's own account", () => {
  // The bank's refusal of a card is Stripe's 402, which the browser reports.
  stripeTest.use({ allowedHttpErrors: [402, 404] });

  stripeTest(
    "a renewal the bank holds for 3-D Secure: the mail leads to the account, where a failed check pays nothing and the passed one pays; then the card is replaced",
    async ({ page, stripeSite }, testInfo) => {
      const email = uniqueEmail("stripe-confirm");
      await bookAndReachPayment(page, { email });
      const orderId = new URL(page.url()).pathname.split("/").pop()!;
      await typeCard(page, "4000 0027 6000 3184");
      await pressFinish(page);
      const bank = page.getByRole("dialog", { name: "3D Secure authentication" });
      await bank.getByRole("button", { name: "Complete authentication" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();

      // The trial ends at Stripe (trial_end=now, as an operator may do it): the fee is charged with
      // nobody present, and this card's bank wants its holder to confirm every payment.
      await stripeSite.fake.settled();
      const subscriptionRef = subscriptionStartedBy(stripeSite.fake, orderId);
      const stripeApi = stripeApiOf(stripeSite.fake);
      expect(await stripeApi(`/v1/subscriptions/${subscriptionRef}`, "trial_end=now")).toMatchObject({
        status: "past_due",
      });
      await stripeSite.fake.settled();

      const mail = await waitForMail(email, { subject: /^Confirm your payment of \$49 / });
      expect(mail.text).toContain("Nothing has been charged yet.");
      expect(await mailsTo(email)).not.toContainEqual(expect.objectContaining({ subject: /^Payment reminder/ }));
      await page.goto(linkOf(mail, /\/account\/sign-in\?for=[\w-]+/));
      await askForCode(page, email);
      await page.getByLabel("Sign-in code").fill(codeOf(await waitForMail(email, { subject: /sign-in code$/ })));
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("membership-status")).toHaveText("Payment due");
      await expect(page.getByTestId("membership-next")).toContainText(
        "Your bank asks you to confirm the payment of $49 with your Visa ending 3184.",
      );
      await page.getByRole("link", { name: "Confirm the payment of $49" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Pay your membership fee" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Card Details" }).getByLabel("Card number")).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshots(page, "stripe-account-confirm-fee", testInfo);

      // The bank's check failed: nothing is paid, and the page says why.
      await page.getByRole("button", { name: "Confirm and pay $49" }).click();
      await bank.getByRole("button", { name: "Fail authentication" }).click();
      await expect(page.getByRole("alert")).toContainText("We are unable to authenticate your payment method.");
      expect(await stripeApi(`/v1/subscriptions/${subscriptionRef}`)).toMatchObject({ status: "past_due" });

      // The member tries again and the bank's check passes: the same card pays.
      await page.getByRole("button", { name: "Confirm and pay $49" }).click();
      await bank.getByRole("button", { name: "Complete authentication" }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByText("Thank you: your fee is paid").first()).toBeVisible();
      await expect(page.getByTestId("membership-status")).toHaveText("Active");
      await expect(page.getByTestId("membership-next")).toContainText("Visa ending 3184");
      await screenshots(page, "stripe-account-fee-paid", testInfo);
      const receipt = await waitForMail(email, { subject: /^Receipt: \$49/ });
      expect(receipt.text).toContain("Visa ending 3184");
      expect(await stripeApi(`/v1/subscriptions/${subscriptionRef}`)).toMatchObject({ status: "active" });

      // Replacing the card: Stripe's field, checked by the bank with nothing charged; a refused card is not kept.
      await page.getByRole("link", { name: "Replace your card" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Replace your card" })).toBeVisible();
      await typeCard(page, "4000 0000 0000 0002");
      await page.getByRole("button", { name: "Save this card" }).click();
      await expect(page.getByRole("alert")).toContainText("Your card was declined.");
      await screenshots(page, "stripe-account-replace-card", testInfo);
      await page.reload();
      await typeCard(page, "4242 4242 4242 4242");
      await page.getByRole("button", { name: "Save this card" }).click();
      await expect(page.getByText("Your card is replaced").first()).toBeVisible();
      await expect(page.getByTestId("membership-next")).toContainText("Visa ending 4242");
      const replaced = await stripeApi(`/v1/subscriptions/${subscriptionRef}`);
      expect(await stripeApi(`/v1/payment_methods/${replaced.default_payment_method as string}`)).toMatchObject({
        card: { last4: "4242" },
      });
    },
  );
});

stripeTest(
  "a Stripe member upgrades to Premium in the account: Stripe prorates and charges at once the amount the button names",
  async ({ page, stripeSite }, testInfo) => {
    const email = uniqueEmail("stripe-upgrade");
    await bookAndReachPayment(page, { email });
    const orderId = new URL(page.url()).pathname.split("/").pop()!;
    await typeCard(page, "4242 4242 4242 4242");
    await pressFinish(page);
    await expect(page.getByRole("heading", { level: 1, name: "Booking Confirmed" })).toBeVisible();
    await stripeSite.fake.settled();
    const subscriptionRef = subscriptionStartedBy(stripeSite.fake, orderId);
    const stripeApi = stripeApiOf(stripeSite.fake);
    // The first quarter starts now (trial_end=now, as an operator may end a trial): its fee is paid.
    expect(await stripeApi(`/v1/subscriptions/${subscriptionRef}`, "trial_end=now")).toMatchObject({
      status: "active",
    });
    await stripeSite.fake.settled();
    await waitForMail(email, { subject: /^Receipt: \$49/ });

    await signInWithMailedCode(page, email);
    const offer = page.getByTestId("plan-change");
    await expect(offer).toContainText("Premium gives 5 free fast-track accesses a month, from today.");
    // The quarter's first day: the whole difference, as Stripe's preview says.
    const upgrade = offer.getByRole("button", { name: "Upgrade to Premium – pay $30 now" });
    await screenshots(page, "stripe-account-plan-change", testInfo);
    await upgrade.click();
    await expectNotice(page, "Your membership is now Premium");
    await expect(page.getByText("We charged $30 to your card for the rest of this quarter").first()).toBeVisible();
    await expect(page.getByTestId("free-accesses")).toHaveText(/^5 of 5 free accesses left in [A-Z][a-z]+$/);
    const subscription = (await stripeApi(`/v1/subscriptions/${subscriptionRef}`)) as {
      items: { data: { price: { lookup_key: string } }[] };
    };
    expect(subscription.items.data[0]!.price.lookup_key).toBe("premium_usd_quarterly");
    const { data: stripeInvoices } = (await stripeApi(`/v1/invoices?subscription=${subscriptionRef}`)) as {
      data: { billing_reason: string; amount_paid: number; status: string }[];
    };
    expect(stripeInvoices.filter((invoice) => invoice.billing_reason === "subscription_update")).toEqual([
      expect.objectContaining({ amount_paid: 3000, status: "paid" }),
    ]);
    const mail = await waitForMail(email, { subject: /^Your membership is now Premium$/ });
    expect(mail.text).toContain("Charged now: $30");
    await stripeSite.fake.settled();
    expect((await mailsTo(email)).filter((sent) => /^Receipt/.test(sent.subject))).toHaveLength(1);
    await screenshots(page, "stripe-account-plan-changed", testInfo);
  },
);

stripeTest.describe("a Stripe event that could not be handled", () => {
  // While Stripe cannot be read, the payment page cannot confirm the payment either (500).
  stripeTest.use({ allowedHttpErrors: [404, 500] });

  stripeTest(
    "is listed in the back office with its error, and an admin's retry pays the order once",
    async ({ page, stripeSite }, testInfo) => {
      const databaseUrl = stripeSite.server.databaseUrl;
      stripeTest.skip(!databaseUrl, NEEDS_POSTGRES);
      await bookAndReachPayment(page, { email: uniqueEmail("stripe-event") });
      const orderId = new URL(page.url()).pathname.split("/").pop()!;
      await stripeSite.fake.settled();
      // Stripe takes the card, but reading the payment back fails, for the page and for the webhook.
      stripeSite.fake.outage = { status: 500, paths: /^\/v1\/payment_intents\/pi_\w+$/ };
      try {
        await typeCard(page, "4242 4242 4242 4242");
        await pressFinish(page);
        await expect(page.getByRole("alert")).toContainText("We could not confirm your payment with the bank yet.");
        await stripeSite.fake.settled();
      } finally {
        stripeSite.fake.outage = undefined;
      }
      expect(stripeSite.fake.deliveries.filter((delivery) => delivery.status === 500)).toContainEqual(
        expect.objectContaining({ type: "payment_intent.succeeded" }),
      );

      await signInAsAdmin(page, stripeSite.server);
      await page.goto("/admin/system");
      await expect(cardOf(page, "Configuration")).toContainText("PaiementsStripe, mode test");
      await cardOf(page, "Files d'attente").getByRole("link", { name: "Voir et relancer" }).click();
      const event = page.getByRole("article", { name: /^payment_intent\.succeeded · evt_/ });
      await expect(event).toContainText("Fake Stripe: simulated outage.");
      await expect(event).toContainText(/Objet pi_\w+/);
      await screenshots(page, "stripe-failed-events", testInfo);

      await event.getByRole("button", { name: "Relancer" }).click();
      await expectNotice(page, "Événement traité");
      await expect(event).toHaveCount(0);
      const database = new pg.Client({ connectionString: databaseUrl });
      await database.connect();
      try {
        const order = await database.query("select status from orders where id = $1", [orderId]);
        expect(order.rows).toEqual([{ status: "paid" }]);
        const paid = await database.query("select count(*)::int as count from payments where order_id = $1", [orderId]);
        expect(paid.rows).toEqual([{ count: 1 }]);
      } finally {
        await database.end();
      }
    },
  );
});
