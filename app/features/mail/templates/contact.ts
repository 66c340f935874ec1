import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { siteConfig } from "../../../../site.config";
import { composeMail, type MailContent } from "./layout";

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

/**
 * The reply to whoever sent a message. It repeats nothing they typed: the address is unverified, so
 * echoing the form would let anyone use it to send their own text to a stranger's inbox.
 */
export function contactAcknowledgementMail(): MailContent {
  const { company, domains } = siteConfig;
  return composeMail({
    subject: `${company.name}: we received your message`,
    blocks: [
      { kind: "paragraph", text: "Hello," },
      {
        kind: "paragraph",
        text: `Thank you for contacting ${company.name}. We have received your message and will get back to you soon.`,
      },
      {
        kind: "paragraph",
        text: `Our customer service team is available ${SUPPORT_HOURS}. If it is urgent, call us on ${company.phone}.`,
      },
      {
        kind: "paragraph",
        text: `You receive this e-mail because this address was entered in a form on ${domains.main}. If that was not you, you can ignore it.`,
      },
    ],
  });
}

/** Tells the company's inbox that a message arrived, with everything the person sent. */
export function contactNotificationMail(details: ContactMessageDetails): MailContent {
  // A subject is one header line: whatever the name holds must not break it.
  const name = details.name.replace(/\s+/g, " ");
  const rows: [string, string][] = [
    ["Name", details.name],
    ["E-mail", details.email],
  ];
  if (details.phone) rows.push(["Phone", details.phone]);
  rows.push(["Sent from", SOURCE_LABELS[details.source]]);
  return composeMail({
    subject: `New message from ${SOURCE_LABELS[details.source]}: ${name}`,
    blocks: [
      { kind: "paragraph", text: `A new message arrived through ${SOURCE_LABELS[details.source]}.` },
      { kind: "fields", rows },
      { kind: "quote", text: details.message },
    ],
  });
}
