import { desc, eq, ilike } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { attachmentsOf } from "~/platform/mail/mail-files.server";
import { isUuid } from "~/lib/uuid";

/** How many mails a page of the outbox list shows. */
export const OUTBOX_PAGE_SIZE = 50;

/** `%`, `_` and `\` are LIKE's own: an address typed with them is searched as typed. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The mails the site has sent or queued, newest first: whom to, the subject, where each stands.
 * `q` keeps the recipients whose address contains it. Page `page` (from 1), and whether there is
 * another after it.
 */
export async function listOutboxMails(db: Database, { q, page }: { q: string; page: number }) {
  const rows = await db
    .select({
      id: outbox.id,
      to: outbox.to,
      subject: outbox.subject,
      status: outbox.status,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(q ? ilike(outbox.to, `%${likeEscaped(q)}%`) : undefined)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(OUTBOX_PAGE_SIZE + 1)
    .offset((page - 1) * OUTBOX_PAGE_SIZE);
  return { mails: rows.slice(0, OUTBOX_PAGE_SIZE), more: rows.length > OUTBOX_PAGE_SIZE };
}

/** One mail as it was sent (or will be), with its files; undefined for an unknown id. */
export async function findOutboxMail(db: Database, id: string) {
  if (!isUuid(id)) return undefined;
  const [mail] = await db.select().from(outbox).where(eq(outbox.id, id));
  return mail && { ...mail, attachments: mail.attachments && (await attachmentsOf(db, mail.attachments)) };
}
