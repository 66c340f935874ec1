import { sql, type SQL } from "drizzle-orm";
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

/** What a template composes: the body and files (the subject is written when the mail is queued). */
export type ComposedMail = Pick<OutgoingMail, "text" | "html" | "attachments">;

/** What JSON keeps as it is: a template's data goes through a jsonb column and back. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A mail queued as data and composed by the outbox worker before its first sending, so that the
 * transaction that queues it pays for an insert, not for rendering. The worker is given its
 * templates when it starts (the platform knows no feature) and takes only rows whose template it
 * knows. `name` is stored with each row: a template keeps it as long as queued rows may hold it.
 */
export interface MailTemplate<Data extends Json> {
  name: string;
  subject(data: Data): string;
  /** `db` reads what the queueing transaction's commit wrote, which its statements could not see (an invoice number, ADR 028). */
  compose(data: Data, db: Database): Promise<ComposedMail>;
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
      // Kept in the row, shared or not: `mail_files` is written outside transactions only.
      attachments: mail.attachments?.length ? mail.attachments.map(({ shared: _, ...file }) => file) : null,
    })),
  );
}

/**
 * Queues a mail the worker composes from `data` with `template`, as a statement for the caller to
 * run alone or inside one of its own, so that queueing the mail costs no round trip of its own:
 * `computed` fills fields of the data with SQL expressions that statement evaluates (what a trigger
 * wrote in it, say); the subject cannot depend on them. With `onlyWith`, a relation of that
 * statement, the mail is queued once for each of its rows: none when the write it names did not happen.
 */
export function templateMailInsert<Data extends Json, Computed extends keyof Data & string = never>(
  template: Pick<MailTemplate<Data>, "name" | "compose"> & { subject: (data: NoInfer<Omit<Data, Computed>>) => string },
  {
    to,
    data,
    computed,
    onlyWith,
  }: { to: string; data: NoInfer<Omit<Data, Computed>>; computed?: Record<Computed, SQL>; onlyWith?: SQL },
) {
  const fields = Object.entries<SQL>(computed ?? {}).map(([name, value]) => sql`${name}::text, to_jsonb(${value})`);
  const templateData = fields.length
    ? sql`${JSON.stringify(data)}::jsonb || jsonb_build_object(${sql.join(fields, sql`, `)})`
    : sql`${JSON.stringify(data)}::jsonb`;
  const row = sql`${to}::text, ${template.subject(data)}::text, '', ${template.name}::text, ${templateData}`;
  return sql`insert into ${outbox} (${sql.identifier("to")}, subject, text_body, template, template_data)
    ${onlyWith ? sql`select ${row} from ${onlyWith}` : sql`values (${row})`}`;
}
