import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { contactMessages, membershipEvents, memberships, outbox, unsubscribeRequests, user } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { SEND_FAILED } from "~/features/messages/public-form.server";
import type { FormActionData } from "~/lib/form-result";
import { siteOrigin } from "~/lib/site-origin.server";
import { action as contactAction } from "~/routes/contact";
import { action as servicesContactAction } from "~/routes/services.contact";
import { action as unsubscribeAction } from "~/routes/unsubscribe";
import UnsubscribeConfirmPage, { action as confirmAction, loader as confirmLoader } from "~/routes/unsubscribe.confirm";
import { siteConfig } from "../../../site.config";
import { bookingInput, emptyBookingTables } from "../../support/integration/booking-helpers";
import { toastOf } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

const kind = testDatabaseKind();
const MESSAGE_SENT = "Message sent successfully! We'll get back to you soon.";
const LINK_SENT = "Unsubscribe link sent to your email";

const testDb = installedTestDatabase();

afterEach(async () => {
  await testDb().delete(outbox);
  await testDb().delete(contactMessages);
  await testDb().delete(unsubscribeRequests);
  await testDb().delete(user);
});

type RouteHandler = (args: { request: Request; params: object; context: object }) => unknown;

interface Answer {
  status: number;
  location?: string | null;
  toast?: unknown;
  setCookie?: string[];
  data?: unknown;
}

/** Calls a route's action or loader the way React Router does, and reads what it answered. */
async function call(handler: unknown, request: Request): Promise<Answer> {
  const result = await (handler as RouteHandler)({ request, params: {}, context: {} });
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("Location"),
      toast: toastOf(result.headers),
      setCookie: result.headers.getSetCookie(),
    };
  }
  if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
    const { data, init } = result as unknown as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, data };
  }
  return { status: 200, data: result };
}

function post(path: string, fields: Record<string, string>) {
  return new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

const formErrors = (answer: Answer) => (answer.data as FormActionData).result.error;
const typed = (answer: Answer) => (answer.data as FormActionData).result.initialValue;

async function stored() {
  const db = testDb();
  return {
    messages: await db.select().from(contactMessages),
    requests: await db.select().from(unsubscribeRequests),
    mails: await db.select().from(outbox).orderBy(outbox.to),
  };
}

const validContact = {
  firstName: " Ada ",
  lastName: "Lovelace",
  email: " ada@example.org ",
  phone: "+31 6 1234 5678",
  message: "When does my trial start?\nThanks!",
  website: "",
};

describe(`the contact form's action on ${kind}`, () => {
  it("stores the message and queues the acknowledgement and the notification, then redirects with the toast", async () => {
    const answer = await call(contactAction, post("/contact", validContact));

    expect(answer).toMatchObject({
      status: 302,
      location: "/contact",
      toast: { type: "success", title: MESSAGE_SENT },
    });
    const { messages, mails } = await stored();
    expect(messages).toEqual([
      expect.objectContaining({
        source: "contact",
        name: "Ada Lovelace",
        email: "ada@example.org",
        phone: "+31 6 1234 5678",
        message: "When does my trial start?\nThanks!",
        status: "new",
      }),
    ]);
    expect(mails.map((mail) => [mail.to, mail.subject, mail.status])).toEqual([
      ["ada@example.org", `${siteConfig.company.name}: we received your message`, "pending"],
      [siteConfig.company.email, "New message from the contact page: Ada Lovelace", "pending"],
    ]);
    const notification = mails[1]!;
    expect(notification.textBody).toContain("+31 6 1234 5678");
    expect(notification.textBody).toContain("> When does my trial start?\n> Thanks!");
    expect(notification.htmlBody).toContain("When does my trial start?<br/>Thanks!");
  });

  it.each([
    ["firstName", "  ", "First name is required"],
    ["lastName", "", "Last name is required"],
    ["email", "ada@", "Invalid email address"],
    ["phone", "", "Phone number is required"],
    ["phone", "1".repeat(21), "Phone number must be at most 20 characters"],
    ["message", "", "Message is required"],
    ["message", "x".repeat(1001), "Message must be at most 1000 characters"],
  ])("refuses %s = %j with 400 and '%s', keeps what was typed, stores nothing", async (field, value, message) => {
    const fields = { ...validContact, [field]: value };
    const answer = await call(contactAction, post("/contact", fields));

    expect(answer.status).toBe(400);
    expect(formErrors(answer)).toEqual({ [field]: [message] });
    // Conform leaves empty fields out of what it sends back.
    expect(typed(answer)).toEqual(Object.fromEntries(Object.entries(fields).filter(([, typed]) => typed !== "")));
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });

  it("answers a filled honeypot exactly like a success, and stores nothing", async () => {
    const real = await call(contactAction, post("/contact", validContact));
    await testDb().delete(outbox);
    await testDb().delete(contactMessages);

    const bot = await call(contactAction, post("/contact", { ...validContact, website: "https://spam.example" }));

    expect(bot).toEqual(real);
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });

  it("keeps neither the message nor any mail when queueing a mail fails after the message is written", async () => {
    // The company notification is the last write of the transaction: make the database refuse it.
    await testDb().execute(
      sql.raw(
        `alter table outbox add constraint refuse_notifications check (subject not like 'New message%') not valid`,
      ),
    );
    try {
      const answer = await call(contactAction, post("/contact", validContact));

      expect(answer.status).toBe(500);
      expect(formErrors(answer)).toEqual({ "": [SEND_FAILED] });
      expect(typed(answer)).toMatchObject({ firstName: " Ada ", message: validContact.message });
      expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
    } finally {
      await testDb().execute(sql.raw("alter table outbox drop constraint refuse_notifications"));
    }
  });
});

describe(`the services contact form's action on ${kind}`, () => {
  const validServices = { fullName: "Grace Hopper", email: "grace@example.org", message: "Concierge?", website: "" };

  it("stores the message as from the services page and returns to the form on the page it came from", async () => {
    const answer = await call(
      servicesContactAction,
      post("/services/contact", { ...validServices, redirectTo: "/services" }),
    );

    expect(answer).toMatchObject({
      status: 302,
      location: "/services#contact",
      toast: { type: "success", title: MESSAGE_SENT },
    });
    const { messages, mails } = await stored();
    expect(messages).toEqual([
      expect.objectContaining({ source: "services", name: "Grace Hopper", email: "grace@example.org", phone: null }),
    ]);
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      ["grace@example.org", `${siteConfig.company.name}: we received your message`],
      [siteConfig.company.email, "New message from the services page: Grace Hopper"],
    ]);
  });

  it("never redirects off the site", async () => {
    const answer = await call(
      servicesContactAction,
      post("/services/contact", { ...validServices, redirectTo: "https://evil.example/" }),
    );
    expect(answer.location).toBe("/services#contact");
  });

  it("refuses missing fields with their messages and stores nothing", async () => {
    const answer = await call(
      servicesContactAction,
      post("/services/contact", { fullName: " ", email: "x", message: "" }),
    );
    expect(answer.status).toBe(400);
    expect(formErrors(answer)).toEqual({
      fullName: ["Full name is required"],
      email: ["Invalid email address"],
      message: ["Message is required"],
    });
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });

  it("drops a filled honeypot silently", async () => {
    const answer = await call(servicesContactAction, post("/services/contact", { ...validServices, website: "x" }));
    expect(answer).toMatchObject({ status: 302, toast: { title: MESSAGE_SENT } });
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });
});

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/** Requests an unsubscribe link for `email` and returns the token the e-mail carries. */
async function requestLink(email: string) {
  await call(unsubscribeAction, post("/unsubscribe", { email, website: "" }));
  const [mail] = await testDb()
    .select()
    .from(outbox)
    .where(
      and(eq(outbox.to, email), eq(outbox.subject, `${siteConfig.company.name}: confirm your unsubscribe request`)),
    );
  const link = new RegExp(`${siteOrigin()}/unsubscribe/confirm\\?token=([\\w-]+)`).exec(mail!.textBody);
  expect(link, mail!.textBody).not.toBeNull();
  return link![1]!;
}

const openLink = (token: string) =>
  call(confirmLoader, new Request(`http://localhost/unsubscribe/confirm?token=${encodeURIComponent(token)}`));
const confirmLink = (token: string) => call(confirmAction, post("/unsubscribe/confirm", { token }));
const linkState = (answer: Answer) => (answer.data as { link: { state: string } }).link.state;

describe(`unsubscribing on ${kind}`, () => {
  it("stores only the hash of a single-use token that expires in 24 hours, and mails the link", async () => {
    const answer = await call(unsubscribeAction, post("/unsubscribe", { email: "  member@example.org ", website: "" }));
    expect(answer).toMatchObject({
      status: 302,
      location: "/unsubscribe",
      toast: { type: "success", title: LINK_SENT },
    });

    const [request] = await testDb()
      .select({
        email: unsubscribeRequests.email,
        tokenHash: unsubscribeRequests.tokenHash,
        confirmedAt: unsubscribeRequests.confirmedAt,
        status: unsubscribeRequests.status,
        hoursValid: sql<number>`extract(epoch from (${unsubscribeRequests.expiresAt} - now())) / 3600`,
      })
      .from(unsubscribeRequests);
    expect(request).toMatchObject({ email: "member@example.org", confirmedAt: null, status: "new" });
    expect(Number(request!.hoursValid)).toBeCloseTo(24, 1);

    const [mail] = await testDb().select().from(outbox);
    expect(mail).toMatchObject({ to: "member@example.org", status: "pending" });
    const token = /token=([\w-]+)/.exec(mail!.textBody)![1]!;
    expect(request!.tokenHash).toBe(sha256(token));
    const everything = JSON.stringify(await testDb().select().from(unsubscribeRequests));
    expect(everything).not.toContain(token);
  });

  it("answers a member and a stranger identically, byte for byte", async () => {
    await testDb().insert(user).values({ id: "member-1", name: "Member", email: "member@example.org" });

    const forMember = await call(unsubscribeAction, post("/unsubscribe", { email: "member@example.org" }));
    const forStranger = await call(unsubscribeAction, post("/unsubscribe", { email: "stranger@example.org" }));

    expect(forStranger).toEqual(forMember);
    const { requests, mails } = await stored();
    expect(requests.map((request) => request.email).sort()).toEqual(["member@example.org", "stranger@example.org"]);
    expect(mails.map((mail) => mail.to)).toEqual(["member@example.org", "stranger@example.org"]);
  });

  it("changes nothing when the link is opened; confirming marks it once and tells the company", async () => {
    const token = await requestLink("member@example.org");

    expect(linkState(await openLink(token))).toBe("ready");
    expect(linkState(await openLink(token))).toBe("ready");
    expect((await stored()).requests[0]).toMatchObject({ confirmedAt: null, status: "new" });

    expect(linkState(await confirmLink(token))).toBe("confirmed");
    const [confirmed] = (await stored()).requests;
    expect(confirmed).toMatchObject({ status: "confirmed" });
    expect(confirmed!.confirmedAt).toBeInstanceOf(Date);
    const notification = await testDb().select().from(outbox).where(eq(outbox.to, siteConfig.company.email));
    expect(notification.map((mail) => mail.subject)).toEqual(["Unsubscribe confirmed: member@example.org"]);

    expect(linkState(await confirmLink(token))).toBe("used");
    expect(linkState(await openLink(token))).toBe("used");
    expect((await stored()).requests[0]!.confirmedAt).toEqual(confirmed!.confirmedAt);
    expect(await testDb().select().from(outbox).where(eq(outbox.to, siteConfig.company.email))).toHaveLength(1);
  });

  it("lets only one of two simultaneous confirmations win", async () => {
    const token = await requestLink("twice@example.org");
    const states = await Promise.all([confirmLink(token), confirmLink(token)]);
    expect(states.map(linkState).sort()).toEqual(["confirmed", "used"]);
  });

  it("refuses an expired link without changing anything", async () => {
    const token = await requestLink("late@example.org");
    await testDb()
      .update(unsubscribeRequests)
      .set({ expiresAt: sql`now() - interval '1 minute'` });

    expect(linkState(await openLink(token))).toBe("expired");
    const confirming = await confirmLink(token);
    expect(linkState(confirming)).toBe("expired");
    expect(confirming.status).toBe(410);
    expect((await stored()).requests[0]).toMatchObject({ confirmedAt: null, status: "new" });
  });

  it("does not know a made-up, malformed or missing token", async () => {
    await requestLink("someone@example.org");
    for (const token of ["A".repeat(43), "not a token", ""]) {
      expect(linkState(await openLink(token))).toBe("unknown");
      const confirming = await confirmLink(token);
      expect(linkState(confirming)).toBe("unknown");
      expect(confirming.status).toBe(400);
    }
    expect((await stored()).requests[0]).toMatchObject({ confirmedAt: null });
  });

  it("refuses a body no form sends (another encoding, broken multipart) with a readable 4xx", async () => {
    const asJson = new Request("http://localhost/unsubscribe", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "member@example.org" }),
    });
    const brokenMultipart = new Request("http://localhost/unsubscribe", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: "--x\r\nContent-Disposition: form-data; name=",
    });
    for (const [request, status] of [
      [asJson, 415],
      [brokenMultipart, 400],
    ] as const) {
      const answer = await routeResult(() => unsubscribeAction(routeArgs(request)));
      expect(answer.status).toBe(status);
      expect(answer.data).toMatch(/^This form could not be read/);
    }
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });

  it("refuses an invalid address and a filled honeypot without storing anything", async () => {
    const invalid = await call(unsubscribeAction, post("/unsubscribe", { email: "member@" }));
    expect(invalid.status).toBe(400);
    expect(formErrors(invalid)).toEqual({ email: ["Invalid email address"] });

    const bot = await call(unsubscribeAction, post("/unsubscribe", { email: "member@example.org", website: "x" }));
    expect(bot).toMatchObject({ status: 302, toast: { title: LINK_SENT } });
    expect(await stored()).toEqual({ messages: [], requests: [], mails: [] });
  });
});

describe(`unsubscribing a member on ${kind}`, () => {
  afterEach(async () => {
    await emptyBookingTables(testDb());
  });

  /** A member whose trial was paid for: their first quarter runs. */
  async function payingMember(email: string) {
    const { orderId } = await createBooking(testDb(), {
      booking: bookingInput({ email }),
      currency: "EUR",
      userId: null,
    });
    const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };
    await payForOrder(testDb(), sandboxGateway, { orderId, card, origin: "http://localhost", consentedAt: new Date() });
    const [trial] = await testDb().select().from(memberships).where(eq(memberships.email, email));
    await runBilling(testDb(), sandboxGateway, { now: trial!.trialEndsAt, origin: "http://localhost" });
    const [member] = await testDb().select().from(memberships).where(eq(memberships.email, email));
    expect(member).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    return member!;
  }

  /** The confirmation page's HTML after confirming, as the browser gets it. */
  function pageHtml(answer: Answer) {
    type PageProps = ComponentProps<typeof UnsubscribeConfirmPage>;
    const actionData = answer.data as PageProps["actionData"];
    const props = { loaderData: { link: { state: "unknown" }, token: null }, actionData } as PageProps;
    return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(UnsubscribeConfirmPage, props)));
  }

  it("cancels the membership at the end of the paid quarter, and mails until when the member keeps access", async () => {
    const member = await payingMember("member@example.org");

    const confirmed = await confirmLink(await requestLink("Member@Example.org"));
    expect(confirmed.status).toBe(200);
    expect(linkState(confirmed)).toBe("confirmed");

    const [after] = await testDb().select().from(memberships).where(eq(memberships.id, member.id));
    expect(after).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      currentPeriodEnd: member.currentPeriodEnd,
      endedAt: null,
    });
    const [event] = await testDb()
      .select()
      .from(membershipEvents)
      .where(eq(membershipEvents.membershipId, member.id))
      .orderBy(sql`${membershipEvents.createdAt} desc`)
      .limit(1);
    expect(event).toMatchObject({ fromStatus: "active", toStatus: "active", actorLabel: "customer" });

    const [cancelled] = await testDb()
      .select()
      .from(outbox)
      .where(eq(outbox.subject, `Your ${siteConfig.company.name} membership is cancelled`));
    expect(cancelled!.to).toBe("member@example.org");
    const accessUntil = formatMemberDay(member.currentPeriodEnd);
    for (const body of [cancelled!.textBody, cancelled!.htmlBody!]) {
      expect(body).toContain(`You keep its benefits until ${accessUntil}`);
      expect(body).toContain("No further fee will be charged.");
    }
  });

  it("tells the link's holder until when the membership runs, and an address without one only that there is none", async () => {
    const member = await payingMember("member@example.org");
    const memberToken = await requestLink("member@example.org");
    const strangerToken = await requestLink("stranger@example.org");
    const forMember = await confirmLink(memberToken);
    const forStranger = await confirmLink(strangerToken);

    const accessUntil = formatMemberDay(member.currentPeriodEnd);
    expect(forMember.data).toMatchObject({
      link: { membership: { accessUntil: member.currentPeriodEnd, atOnce: false } },
    });
    expect(pageHtml(forMember)).toContain(`It ends on <strong class="text-foreground">${accessUntil}</strong>`);
    expect(forStranger.data).toMatchObject({ link: { state: "confirmed", membership: null } });
    expect(pageHtml(forStranger)).toContain("This address has no running membership");
    expect(pageHtml(forStranger)).not.toContain(accessUntil);

    // Opening a used link again, which anyone who saw it may do, says the same with or without a membership.
    const usedAnswer = async (token: string, email: string) => {
      const { data } = await openLink(token);
      const { link } = data as { link: { confirmedAt?: Date } };
      delete link.confirmedAt;
      return JSON.parse(JSON.stringify(data).replaceAll(email, "someone@example.org")) as unknown;
    };
    expect(await usedAnswer(strangerToken, "stranger@example.org")).toEqual(
      await usedAnswer(memberToken, "member@example.org"),
    );

    const cancellations = await testDb()
      .select({ to: outbox.to })
      .from(outbox)
      .where(eq(outbox.subject, `Your ${siteConfig.company.name} membership is cancelled`));
    expect(cancellations).toEqual([{ to: "member@example.org" }]);
    expect(await testDb().select({ id: memberships.id }).from(memberships)).toEqual([{ id: member.id }]);
  });

  it("tells a member in the free trial that it ends with the trial, the day the e-mail gives", async () => {
    const { orderId } = await createBooking(testDb(), {
      booking: bookingInput({ email: "trial@example.org" }),
      currency: "EUR",
      userId: null,
    });
    const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };
    await payForOrder(testDb(), sandboxGateway, { orderId, card, origin: "http://localhost", consentedAt: new Date() });
    const [trial] = await testDb().select().from(memberships).where(eq(memberships.email, "trial@example.org"));

    const confirmed = await confirmLink(await requestLink("trial@example.org"));
    const trialEnd = formatMemberDay(trial!.trialEndsAt);
    expect(pageHtml(confirmed)).toContain(`It ends on <strong class="text-foreground">${trialEnd}</strong>`);
    const [mail] = await testDb()
      .select()
      .from(outbox)
      .where(eq(outbox.subject, `Your ${siteConfig.company.name} membership is cancelled`));
    expect(mail!.textBody).toContain(`You keep its benefits until ${trialEnd}`);
  });
});
