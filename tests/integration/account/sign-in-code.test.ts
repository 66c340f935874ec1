import { and, desc, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox, user, verification } from "~/db/schema";
import { createBooking } from "~/features/booking/orders.server";
import { RATE_LIMIT_TIERS } from "~/lib/rate-limit.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { action as signInAction, loader as signInLoader, WRONG_CODE } from "~/routes/account.sign-in";
import { loader as accountLoader } from "~/routes/account";
import { bookingInput } from "../../support/integration/booking-helpers";
import { installedTestDatabase } from "../../support/integration/installed-database";
import {
  cookieHeader,
  formRequest,
  freshClientAddress,
  pageRequest,
  toastOf,
} from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const db = installedTestDatabase();

let addresses = 0;
/** An address no test used before. */
function freshAddress(name = "member") {
  addresses += 1;
  return `${name}.${addresses}.${Date.now()}@example.com`;
}

function post(fields: Record<string, string>, options: { address?: string; cookie?: string } = {}) {
  return routeResult(() => signInAction(routeArgs(formRequest("/account/sign-in", fields, options))));
}

const askForCode = (email: string, options: { address?: string } = {}) => post({ intent: "send-code", email }, options);
const signIn = (email: string, code: string, options: { address?: string } = {}) =>
  post({ intent: "sign-in", email, code }, options);

/** The newest sign-in mail to the address: its code and its link. */
async function signInMail(email: string) {
  const [mail] = await db()
    .select({ subject: outbox.subject, text: outbox.textBody, html: outbox.htmlBody })
    .from(outbox)
    .where(and(eq(outbox.to, email.toLowerCase()), like(outbox.subject, "%sign-in code")))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(1);
  if (!mail) throw new Error(`no sign-in code was mailed to ${email}`);
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  const link = new RegExp(`${siteOrigin()}/account/sign-in\\?link=[\\w-]+`).exec(mail.text)?.[0];
  if (!code || !link) throw new Error(`the sign-in mail to ${email} has no code or link: ${mail.text}`);
  return { ...mail, code, link };
}

async function bookedAddress(name = "booked") {
  const email = freshAddress(name);
  await createBooking(db(), {
    booking: bookingInput({ email, firstName: "Rosa", lastName: "Booker" }),
    currency: "EUR",
    userId: null,
  });
  return email;
}

describe(`the member area's sign-in with an e-mailed code, on ${testDatabaseKind()}`, () => {
  it("mails a code and a link, and signs in with the code: the account shows that address's bookings", async () => {
    const email = await bookedAddress();
    const asked = await askForCode(email);
    expect(asked.status).toBe(302);
    expect(asked.location).toMatch(/^\/account\/sign-in\?for=[\w-]+&step=code$/);
    expect(asked.location).not.toContain(email.split("@")[0]);
    expect(toastOf(asked.headers)).toMatchObject({ title: "Check your e-mail" });

    const { code, text } = await signInMail(email);
    expect(text).toContain(code);
    expect(text).toContain("10 minutes");

    const signedIn = await signIn(email, code);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/account");
    const cookie = cookieHeader(signedIn.headers);
    expect(cookie).toContain("session_token");

    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie }))));
    const account = page.data as { email: string; bookings: { orderNumber: string }[] };
    expect(account.email).toBe(email);
    expect(account.bookings).toHaveLength(1);
    const [created] = await db().select().from(user).where(eq(user.email, email));
    expect(created).toMatchObject({ emailVerified: true, name: "Rosa Booker", fullName: "Rosa Booker" });
  });

  it("answers an address nobody booked with exactly as one that did", async () => {
    const known = await bookedAddress();
    const unknown = freshAddress("stranger");
    const [forKnown, forUnknown] = [await askForCode(known), await askForCode(unknown)];
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.data).toEqual(forKnown.data);
    expect(toastOf(forUnknown.headers)?.title).toBe(toastOf(forKnown.headers)?.title);
    expect(toastOf(forUnknown.headers)?.description?.replace(unknown, "ADDRESS")).toBe(
      toastOf(forKnown.headers)?.description?.replace(known, "ADDRESS"),
    );
  });

  it("takes as long for an unknown address as for a known one (medians within 50 ms)", async () => {
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 9; round++) {
      const knownAddress = await bookedAddress();
      const unknownAddress = freshAddress("stranger");
      for (const [address, times] of [
        [knownAddress, known],
        [unknownAddress, unknown],
      ] as const) {
        const started = performance.now();
        expect((await askForCode(address)).status).toBe(302);
        times.push(performance.now() - started);
      }
    }
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(50);
  });

  it("signs in once per code: the same code again is refused", async () => {
    const email = freshAddress();
    await askForCode(email);
    const { code } = await signInMail(email);
    expect((await signIn(email, code)).status).toBe(302);
    const again = await signIn(email, code);
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.data)).toContain(WRONG_CODE);
    expect(again.headers.getSetCookie().join()).not.toContain("session_token");
  });

  it("stops a code after five wrong tries, even before the right one", async () => {
    const email = freshAddress();
    await askForCode(email);
    const { code } = await signInMail(email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn(email, wrong)).status).toBe(400);
    const right = await signIn(email, code);
    expect(right.status).toBe(400);
    expect(JSON.stringify(right.data)).toContain(WRONG_CODE);
  });

  it("refuses a code whose ten minutes are over", async () => {
    const email = freshAddress();
    await askForCode(email);
    const { code } = await signInMail(email);
    await db()
      .update(verification)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(verification.identifier, `sign-in-otp-${email}`));
    expect((await signIn(email, code)).status).toBe(400);
  });

  it("opening the mail's link (as a mail scanner does) only fills in the form: the code still works after", async () => {
    const email = freshAddress();
    await askForCode(email);
    const { code, link } = await signInMail(email);
    for (let scan = 0; scan < 3; scan++) {
      const page = await routeResult(() => signInLoader(routeArgs(pageRequest(link.replace(siteOrigin(), "")))));
      expect(page.status).toBe(200);
      expect(page.data).toEqual({ email, code, codeStep: true });
    }
    expect((await signIn(email, code)).status).toBe(302);
  });

  it("keeps the address and the code out of the link in clear", async () => {
    const email = freshAddress("visible");
    await askForCode(email);
    const { code, link } = await signInMail(email);
    expect(link).not.toContain("visible");
    expect(new URL(link).searchParams.get("link")).not.toContain(code);
  });

  it(`mails one address at most ${RATE_LIMIT_TIERS.signInCodesPerAddress.max} codes a quarter of an hour, whoever asks`, async () => {
    const email = freshAddress();
    for (let ask = 0; ask < RATE_LIMIT_TIERS.signInCodesPerAddress.max; ask++) {
      expect((await askForCode(email, { address: freshClientAddress() })).status).toBe(302);
    }
    const refused = await askForCode(email, { address: freshClientAddress() });
    expect(refused.status).toBe(429);
    const mails = await db()
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.to, email), like(outbox.subject, "%sign-in code")));
    expect(mails).toHaveLength(RATE_LIMIT_TIERS.signInCodesPerAddress.max);
  });

  it("refuses a malformed code or address without asking anyone, and changes nothing", async () => {
    const email = freshAddress();
    const before = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(verification);
    for (const [field, value] of [
      ["code", "12ab56"],
      ["code", "1234567"],
      ["email", "not-an-address"],
    ] as const) {
      const result = await post({ intent: "sign-in", email, code: "123456", [field]: value });
      expect(result.status).toBe(400);
    }
    expect((await askForCode("not-an-address")).status).toBe(400);
    expect(
      await db()
        .select({ count: sql<number>`count(*)::int` })
        .from(verification),
    ).toEqual(before);
  });

  it("sends anyone not signed in from /account to the sign-in, and a signed-in member from the sign-in to /account", async () => {
    const anonymous = await routeResult(() => accountLoader(routeArgs(pageRequest("/account"))));
    expect(anonymous).toMatchObject({ status: 302, location: "/account/sign-in" });
    const email = freshAddress();
    await askForCode(email);
    const cookie = cookieHeader((await signIn(email, (await signInMail(email)).code)).headers);
    const signInPage = await routeResult(() => signInLoader(routeArgs(pageRequest("/account/sign-in", { cookie }))));
    expect(signInPage).toMatchObject({ status: 302, location: "/account" });
  });

  it("shows a signed-in person their own bookings only, guest bookings of their address included", async () => {
    const mine = await bookedAddress("mine");
    const theirs = await bookedAddress("theirs");
    await createBooking(db(), { booking: bookingInput({ email: mine.toUpperCase() }), currency: "USD", userId: null });
    await askForCode(mine);
    const cookie = cookieHeader((await signIn(mine, (await signInMail(mine)).code)).headers);
    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie }))));
    const { bookings } = page.data as { bookings: { orderNumber: string }[] };
    expect(bookings).toHaveLength(2);
    const theirOrders = await db().execute(
      sql`select order_number from orders join customers on customers.id = orders.customer_id where customers.email = ${theirs}`,
    );
    const theirNumbers = (theirOrders as unknown as { rows: { order_number: string }[] }).rows.map(
      (row) => row.order_number,
    );
    expect(bookings.map((booking) => booking.orderNumber)).not.toContain(theirNumbers[0]);
  });
});
