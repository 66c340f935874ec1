import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { MailButton, renderMail } from "~/platform/mail/layout";
import { contactAcknowledgementMail, contactNotificationMail } from "./contact-mail";

const hostile = {
  source: "contact" as const,
  name: 'Eve <script>alert("x")</script>\r\nBcc: victim@example.org',
  email: "eve@example.org",
  phone: "+1 555 0100",
  message: "Line one & <img src=x onerror=alert(1)>\nLine two",
};

describe("mail templates", () => {
  it("escapes what people typed in the HTML body and keeps it as typed in the text body", async () => {
    const mail = await contactNotificationMail(hostile);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mail.html).toContain("Line one &amp; &lt;img src=x onerror=alert(1)&gt;<br/>Line two");
    expect(mail.text).toContain("> Line one & <img src=x onerror=alert(1)>\n> Line two");
    expect(mail.text).toContain("Phone: +1 555 0100");
  });

  it("keeps the subject on one line whatever the name holds", async () => {
    expect((await contactNotificationMail(hostile)).subject).toBe(
      'New message from the contact page: Eve <script>alert("x")</script> Bcc: victim@example.org',
    );
  });

  it("repeats nothing the sender typed in the acknowledgement", async () => {
    const mail = await contactAcknowledgementMail();
    expect(mail.subject).toBe(`${siteConfig.company.name}: we received your message`);
    expect(mail.text).toContain(siteConfig.company.phone);
    expect(mail.text).toContain("7 days a week, 9 AM to 8 PM");
  });

  it("refuses a button that is not a web link", async () => {
    await expect(renderMail("x", <MailButton href="javascript:alert(1)">Go</MailButton>)).rejects.toThrow(
      /javascript:/,
    );
  });
});
