import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { MailAttachment } from "./attachment";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

/**
 * Queues an e-mail. Pass the transaction that writes the data the mail is about, so the mail is
 * queued if and only if that data is committed; the outbox worker sends it afterwards.
 */
export async function enqueueMail(db: Database, mail: OutgoingMail) {
  await enqueueMails(db, [mail]);
}

/** `enqueueMail` for several mails, in one statement. */
export async function enqueueMails(db: Database, mails: OutgoingMail[]) {
  if (mails.length === 0) return;
  await db.insert(outbox).values(
    mails.map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      attachments: mail.attachments?.length ? mail.attachments : null,
    })),
  );
}
