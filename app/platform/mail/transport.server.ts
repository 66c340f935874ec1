import nodemailer from "nodemailer";
import type { MailAttachment } from "./attachment";

export interface Envelope {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: MailAttachment[];
}

/** Something that delivers one e-mail, or rejects with the reason it could not. */
export interface MailTransport {
  send(mail: Envelope): Promise<void>;
  close(): void;
}

/** Delivers over SMTP with nodemailer; `url` is SMTP_URL (smtp:// or smtps://, credentials inside). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 2,
    // A stuck server must fail the attempt (and be retried later), not hold the worker forever.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        attachments: mail.attachments?.map(({ filename, contentType, content, cid }) => ({
          filename,
          contentType,
          content,
          encoding: "base64",
          ...(cid ? { cid, contentDisposition: "inline" as const } : {}),
        })),
      });
    },
    close: () => transporter.close(),
  };
}
