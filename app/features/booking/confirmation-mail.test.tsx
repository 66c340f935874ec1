import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import type { renderFilledMail } from "~/platform/mail/filled-mail";
import { confirmationMail } from "./confirmation-mail";

/** Renders every message, as the mail was before it was filled: what a filled mail must equal. */
const renderEachMail: typeof renderFilledMail = (_kind, fields, render) => render(fields);

const details = {
  to: "ann@example.com",
  customerName: "Ann <b>Lee</b>",
  orderNumber: "FT-1795000000123-ABCDEF",
  airport: "Paris Orly - ORY",
  flightDate: "2030-01-02",
  adults: 2,
  children: 1,
  amount: 3300,
  currency: "EUR" as const,
  voucherShortCode: "K7QM-3XPA-TW",
  voucherQrPng: "AAAA",
  bookingUrl: "https://www.jetlane.example/fast-track-payment/0b8f5c1e-1d2a-4c3b-9e8f-7a6b5c4d3e2f",
  origin: "https://www.jetlane.example",
  // 10:00 in Amsterdam on 20 December 2029.
  paidAt: new Date("2029-12-20T09:00:00Z"),
  consent: "I ask for my Fast Track to start now.",
  invoiceNumber: "2029-000042",
  membership: { trialEndsAt: new Date("2029-12-23T09:00:00Z"), fee: 4900 },
};

describe("confirmationMail", () => {
  it("carries the order, the amount paid and the voucher, in text and HTML", async () => {
    const mail = await confirmationMail(details);
    expect(mail.subject).toBe("Your Fast Track booking FT-1795000000123-ABCDEF is confirmed");
    expect(mail.text).toContain("Invoice number: 2029-000042");
    for (const body of [mail.text, mail.html!]) {
      for (const expected of [
        "FT-1795000000123-ABCDEF",
        "Paris Orly - ORY",
        "Wednesday 2 January 2030",
        "2 adults, 1 child",
        "€33",
        "K7QM-3XPA-TW",
      ]) {
        expect(body).toContain(expected);
      }
    }
    expect(mail.html).toContain('src="cid:voucher-qr"');
    expect(mail.html).not.toContain("data:");
    expect(mail.attachments).toContainEqual({
      filename: "voucher-qr.png",
      contentType: "image/png",
      content: "AAAA",
      cid: "voucher-qr",
    });
  });

  it("escapes what the customer typed in the HTML", async () => {
    const mail = await confirmationMail(details);
    expect(mail.html).toContain("Dear Ann &lt;b&gt;Lee&lt;/b&gt;,");
    expect(mail.html).not.toContain("<b>Lee</b>");
    expect(mail.text).toContain("Dear Ann <b>Lee</b>,");
  });
});

describe("the confirmation's calendar entry and link", () => {
  it("attaches the flight day as an .ics file and links to the booking's page", async () => {
    const mail = await confirmationMail(details);
    const calendar = mail.attachments!.find((attachment) => attachment.filename === "fast-track.ics")!;
    expect(calendar.contentType).toBe("text/calendar");
    const ics = Buffer.from(calendar.content, "base64").toString("utf8");
    expect(ics).toContain("DTSTART;VALUE=DATE:20300102");
    expect(ics).toContain("LOCATION:Paris Orly - ORY");
    expect(ics.replace(/\r\n /g, "")).toContain("Booking FT-1795000000123-ABCDEF\\, voucher code K7QM-3XPA-TW.");
    expect(mail.html).toContain(`href="${details.bookingUrl}"`);
    expect(mail.text).toContain(details.bookingUrl);
  });

  it("attaches no calendar entry to a booking without a flight date", async () => {
    const mail = await confirmationMail({ ...details, flightDate: null });
    expect(mail.attachments!.map((attachment) => attachment.filename)).toEqual([
      "voucher-qr.png",
      "terms-and-conditions.html",
    ]);
  });

  it("is the contract on a durable medium: the first charge, how to cancel and withdraw, the consent, the model form and the terms", async () => {
    const mail = await confirmationMail(details);
    for (const body of [mail.text, mail.html!]) {
      expect(body).toContain("23 December 2029");
      expect(body).toContain("€49 on 23 December 2029");
      expect(body).toContain("https://www.jetlane.example/unsubscribe");
      expect(body).toContain("https://www.jetlane.example/withdraw");
      // 14 days from the payment.
      expect(body).toContain("until 3 January 2030");
      expect(body).toContain("I ask for my Fast Track to start now.");
      expect(body).toContain("Model withdrawal form");
      expect(body).toContain(`To: ${siteConfig.company.legalName}, ${siteConfig.company.address}`);
    }
    const terms = mail.attachments.find((attachment) => attachment.filename === "terms-and-conditions.html")!;
    const html = Buffer.from(terms.content, "base64").toString();
    expect(html).toContain("<h1");
    expect(html).toContain("Subscription Terms");
    expect(html).toContain("€49");
    expect(html).toContain('href="https://www.jetlane.example/unsubscribe"');
  });

  it("says nothing of a membership when the payment started none", async () => {
    const mail = await confirmationMail({ ...details, membership: null });
    expect(mail.text).not.toContain("First charge");
    expect(mail.text).toContain("Model withdrawal form");
  });
});

describe("the confirmation, rendered once per shape and filled per order", () => {
  // Every shape: with and without each optional row and paragraph.
  const shapes = [
    { amount: 0, freeAccesses: 2 },
    { invoiceNumber: null, flightDate: null, membership: null, consent: null },
    { airport: null, freeAccesses: 1 },
    {},
  ];
  // What people type and what other currencies write: markup, quotes, "$&", letters of any script.
  const orders = [
    { customerName: "Zoë O'Brien & <i>Co</i>", currency: "USD" as const, amount: 4550 },
    { customerName: "Ann Lee", orderNumber: "FT-1795000000999-ZZZZZZ", voucherShortCode: "AAAA-BBBB-CC" },
    { customerName: 'Léa "Lou" Dupont $& $1', currency: "GBP" as const, origin: "http://localhost:3000" },
  ];

  it("is the mail that rendering each order gives, in text and HTML, whichever order comes first", async () => {
    for (const shape of shapes) {
      for (const order of [...orders, ...orders.toReversed()]) {
        const each = { ...details, ...shape, ...order };
        const filled = await confirmationMail(each);
        const rendered = await confirmationMail(each, renderEachMail);
        expect(filled.html).toBe(rendered.html);
        expect(filled.text).toBe(rendered.text);
      }
    }
  });

  it("renders an order whose values would lay out differently (a line break, two spaces) as it is", async () => {
    const each = { ...details, customerName: "Ann  Lee", consent: "I ask you\nto start now." };
    const filled = await confirmationMail(each);
    expect(filled.html).toBe((await confirmationMail(each, renderEachMail)).html);
    expect(filled.text).toContain("Dear Ann Lee,");
  });
});
