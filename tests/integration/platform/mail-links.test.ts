import { request as httpRequest } from "node:http";
import { eq, notInArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { memberships, outbox } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { bookingInput } from "../../support/integration/booking-helpers";
import { cliTestDatabase, runNpmScript } from "../../support/integration/npm-script";
import { startProductionServer, type ProductionServer } from "../../support/production-server";

/**
 * Every link of every mail the server, its billing job and `npm run billing` write names where the
 * site is served (README, "Where links point"), never the port a command happens to default to nor
 * the Host header a client sent.
 */
const database = cliTestDatabase();
let server: ProductionServer | undefined;

afterAll(async () => {
  await server?.dispose();
});

const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };
const SEED_ORIGIN = "http://seed.invalid";

/** A member whose trial ends at `trialEndsAt`, with the mails of the checkout written by this process. */
async function member(email: string, trialEndsAt: Date) {
  const { orderId } = await createBooking(database.db(), {
    booking: bookingInput({ email }),
    currency: "EUR",
    userId: null,
  });
  await payForOrder(database.db(), sandboxGateway, { orderId, card, origin: SEED_ORIGIN, consentedAt: new Date() });
  await database
    .db()
    .update(memberships)
    .set({ trialEndsAt, currentPeriodEnd: trialEndsAt })
    .where(eq(memberships.email, email));
}

/** POST as a client that claims another host, as anyone can. */
function postWithHost(url: string, host: string, fields: Record<string, string>, type: "form" | "json" = "form") {
  const body = type === "form" ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  const contentType = type === "form" ? "application/x-www-form-urlencoded" : "application/json";
  return new Promise<number>((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: "POST",
        headers: { Host: host, "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode!);
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

/** Every address a reader can follow: the HTML's href and src, and the URLs of the text part. */
function linksOf(mail: { textBody: string; htmlBody: string | null }) {
  const html = [...(mail.htmlBody ?? "").matchAll(/\s(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
  const text = [...mail.textBody.matchAll(/https?:\/\/[^\s)\]>"]+/g)].map((match) => match[0]);
  return [...html, ...text].filter((link) => /^https?:/i.test(link));
}

async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 45_000;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what}; the server's output:\n${server?.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe(`links in the mails of the server, its jobs and its commands on ${database.kind}`, () => {
  it("name where the site is served", { timeout: 180_000 }, async () => {
    // The server's clock is the real one: its billing job charges a trial that ended an hour ago.
    const now = Date.now();
    await member("charged-by-the-server@example.org", new Date(now - 3_600_000));
    const laterTrialEnd = new Date(now + 3 * 24 * 3_600_000);
    await member("reminded-by-the-command@example.org", laterTrialEnd);
    const seeded = (await database.db().select({ id: outbox.id }).from(outbox)).map((row) => row.id);
    await database.release();

    // No SITE_URL on the embedded database: the server's own HOST and PORT. PostgreSQL in production requires it.
    const serverEnv = { BILLING_INTERVAL_MINUTES: "15", SITE_URL: "" };
    server =
      database.kind === "postgres"
        ? await startProductionServer(
            "postgres",
            { ...serverEnv, SITE_URL: undefined },
            {
              databaseUrl: database.env().DATABASE_URL,
            },
          )
        : await startProductionServer("pglite", serverEnv, { dataDir: database.env().DATA_DIR });
    const served = server.baseUrl;

    const unsubscribe = await postWithHost(`${served}/unsubscribe`, "attacker.example", {
      email: "charged-by-the-server@example.org",
      website: "",
    });
    expect(unsubscribe).toBeLessThan(400);
    const signUp = await postWithHost(
      `${served}/api/auth/sign-up/email`,
      "attacker.example",
      { email: "new-account@example.org", password: "a long enough password", name: "New Account" },
      "json",
    );
    expect(signUp).toBe(200);
    await waitFor(() => server!.output().includes('"msg":"billing run"'), "the server's first billing run");
    expect(await server.stop()).toBe(0);

    // A command knows nothing of the server's port: on the embedded database it finds where the
    // server listened beside the data; on PostgreSQL it has the server's environment, SITE_URL included.
    const reminderAt = new Date(laterTrialEnd.getTime() - (MEMBERSHIP_TERMS.trialReminderHours / 2) * 3_600_000);
    const commandEnv =
      database.kind === "postgres"
        ? { ...database.env(), NODE_ENV: "production", SITE_URL: served }
        : { ...database.env(), PORT: "", HOST: "" };
    if (database.kind === "postgres") {
      const refused = await runNpmScript("billing", ["--at", reminderAt.toISOString()], {
        ...commandEnv,
        SITE_URL: "",
      });
      expect(refused).toMatchObject({ code: 1 });
      expect(refused.output).toMatch(/SITE_URL: is required in production on PostgreSQL/);
    }
    const billed = await runNpmScript("billing", ["--at", reminderAt.toISOString()], commandEnv);
    expect(billed.output).toContain("first-charge reminders sent: 1");
    expect(billed.code).toBe(0);

    await database.reopen();
    const mails = await database
      .db()
      .select({ to: outbox.to, subject: outbox.subject, textBody: outbox.textBody, htmlBody: outbox.htmlBody })
      .from(outbox)
      .where(notInArray(outbox.id, seeded));
    const written = mails.map((mail) => mail.to).sort();
    expect(written).toEqual([
      // the unsubscribe request's confirmation link, the fee's receipt
      "charged-by-the-server@example.org",
      "charged-by-the-server@example.org",
      // the address confirmation of a sign-up
      "new-account@example.org",
      "reminded-by-the-command@example.org",
    ]);
    for (const mail of mails) {
      const links = linksOf(mail);
      expect(links.length, mail.subject).toBeGreaterThan(0);
      for (const link of links) expect(new URL(link).origin, `${mail.subject}: ${link}`).toBe(served);
    }
  });
});
