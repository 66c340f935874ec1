import { describe, expect, it } from "vitest";
import { confirmationMail } from "./confirmation-mail";

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
};

describe("confirmationMail", () => {
  it("carries the order, the amount paid and the voucher, in text and HTML", async () => {
    const mail = await confirmationMail(details);
    expect(mail.to).toBe("ann@example.com");
    expect(mail.subject).toBe("Your Fast Track booking FT-1795000000123-ABCDEF is confirmed");
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
    expect(mail.attachments!.map((attachment) => attachment.filename)).toEqual(["voucher-qr.png"]);
  });
});
