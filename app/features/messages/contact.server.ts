import type { Database } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { contactAcknowledgementMail, contactNotificationMail, type ContactMessageDetails } from "./contact-mail";
import { siteConfig } from "../../../site.config";

export const MESSAGE_SENT = "Message sent successfully! We'll get back to you soon.";

/**
 * Stores a message and, in the same transaction, queues the acknowledgement to its sender and the
 * notification to the company: all three exist, or none does.
 */
export async function saveContactMessage(db: Database, details: ContactMessageDetails): Promise<string> {
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(contactMessages)
      .values({
        source: details.source,
        name: details.name,
        email: details.email,
        phone: details.phone ?? null,
        message: details.message,
      })
      .returning({ id: contactMessages.id });
    await enqueueMail(tx, { to: details.email, ...(await contactAcknowledgementMail()) });
    await enqueueMail(tx, { to: siteConfig.company.email, ...(await contactNotificationMail(details)) });
    return stored!.id;
  });
}
