import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { confirmCancellationMail } from "./cancellation-request-mail";

describe("the cancellation link mail", () => {
  it("puts the confirmation link in both bodies and signs with the company's details", async () => {
    const confirmUrl = "https://www.jetlane.example/unsubscribe/confirm?token=abc&x=1";
    const mail = await confirmCancellationMail({ confirmUrl, validForHours: 24 });
    expect(mail.text).toContain(`Confirm unsubscribe ${confirmUrl}`);
    expect(mail.html).toContain('href="https://www.jetlane.example/unsubscribe/confirm?token=abc&amp;x=1"');
    expect(mail.text).toContain("expires in 24 hours");
    for (const body of [mail.text, mail.html]) expect(body).toContain(siteConfig.company.legalName);
  });
});
