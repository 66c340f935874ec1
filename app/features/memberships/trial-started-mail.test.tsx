import { describe, expect, it } from "vitest";
import type { renderFilledMail } from "~/platform/mail/filled-mail";
import { trialStartedMail } from "./membership-mails";

/** Renders every message, as the mail was before it was filled: what a filled mail must equal. */
const renderEachMail: typeof renderFilledMail = (_kind, fields, render) => render(fields);

const member = {
  to: "ann@example.com",
  planName: "Medium",
  price: 4900,
  currency: "EUR" as const,
  origin: "https://www.jetlane.example",
  // 10:00 in Amsterdam on 23 December 2029.
  trialEndsAt: new Date("2029-12-23T09:00:00Z"),
};

/** The sign-in link seals the address anew each time (ADR 027): the same link reads differently. */
const sealedLinkOut = <Mail extends { html: string; text: string }>(mail: Mail): Mail => ({
  ...mail,
  html: mail.html.replace(/sign-in\?for=[\w-]+/g, "sign-in?for=…"),
  text: mail.text.replace(/sign-in\?for=[\w-]+/g, "sign-in?for=…"),
});

describe("the trial-started e-mail, rendered once and filled per member", () => {
  const members = [
    member,
    { ...member, to: "zoe.o'brien+trips@example.com", currency: "USD" as const, price: 7900, planName: "Premium" },
    { ...member, to: "lea@example.com", currency: "GBP" as const, origin: "http://localhost:3000" },
    // A day across the clock change, and the last day of February.
    { ...member, trialEndsAt: new Date("2030-03-31T01:30:00Z") },
    { ...member, trialEndsAt: new Date("2028-02-29T22:59:00Z") },
  ];

  it("is the mail that rendering each member gives, in text and HTML", async () => {
    for (const each of [...members, ...members.toReversed()]) {
      const filled = sealedLinkOut(await trialStartedMail(each));
      const rendered = sealedLinkOut(await trialStartedMail(each, renderEachMail));
      expect(filled).toEqual(rendered);
    }
  });

  it("gives the plan, the first charge and the links to cancel and manage the membership", async () => {
    const mail = await trialStartedMail(members[1]!);
    expect(mail.subject).toMatch(/^Your 3-day free trial of .+ Premium has started$/);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain("$79 on 23 December 2029");
      expect(body).toContain("https://www.jetlane.example/unsubscribe");
    }
    expect(mail.html).toMatch(/href="https:\/\/www\.jetlane\.example\/account\/sign-in\?for=[\w-]+"/);
  });
});
