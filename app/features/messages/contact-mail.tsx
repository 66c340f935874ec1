import { MailFields, MailLayout, MailParagraph, MailQuote, renderMail, type MailContent } from "~/platform/mail/layout";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { siteConfig } from "../../../site.config";

export type ContactSource = "contact" | "services";

export interface ContactMessageDetails {
  source: ContactSource;
  name: string;
  email: string;
  phone?: string | null;
  message: string;
}

const SOURCE_LABELS: Record<ContactSource, string> = {
  contact: "the contact page",
  services: "the services page",
};

export function ContactAcknowledgement() {
  const { company, domains } = siteConfig;
  return (
    <MailLayout preview="We received your message">
      <MailParagraph>Hello,</MailParagraph>
      <MailParagraph>{`Thank you for contacting ${company.name}. We have received your message and will get back to you soon.`}</MailParagraph>
      <MailParagraph>{`Our customer service team is available ${SUPPORT_HOURS}. If it is urgent, call us on ${company.phone}.`}</MailParagraph>
      <MailParagraph>{`You receive this e-mail because this address was entered in a form on ${domains.main}. If that was not you, you can ignore it.`}</MailParagraph>
    </MailLayout>
  );
}

/**
 * The reply to whoever sent a message. It repeats nothing they typed: the address is unverified, so
 * echoing the form would let anyone use it to send their own text to a stranger's inbox.
 */
export function contactAcknowledgementMail(): Promise<MailContent> {
  return renderMail(`${siteConfig.company.name}: we received your message`, <ContactAcknowledgement />);
}

export function ContactNotification({ details }: { details: ContactMessageDetails }) {
  const rows: [string, string][] = [
    ["Name", details.name],
    ["E-mail", details.email],
  ];
  if (details.phone) rows.push(["Phone", details.phone]);
  rows.push(["Sent from", SOURCE_LABELS[details.source]]);
  return (
    <MailLayout preview={`A new message arrived through ${SOURCE_LABELS[details.source]}`}>
      <MailParagraph>{`A new message arrived through ${SOURCE_LABELS[details.source]}.`}</MailParagraph>
      <MailFields rows={rows} />
      <MailQuote>{details.message}</MailQuote>
    </MailLayout>
  );
}

/** Tells the company's inbox that a message arrived, with everything the person sent. */
export function contactNotificationMail(details: ContactMessageDetails): Promise<MailContent> {
  // A subject is one header line: whatever the name holds must not break it.
  const name = details.name.replace(/\s+/g, " ");
  return renderMail(
    `New message from ${SOURCE_LABELS[details.source]}: ${name}`,
    <ContactNotification details={details} />,
  );
}
