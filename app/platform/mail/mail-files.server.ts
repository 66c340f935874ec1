import { createHash } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { mailFiles } from "~/db/schema";
import type { MailAttachment, StoredAttachment } from "./attachment";

/** Per database, the hashes of the files this process has seen committed to its `mail_files`, which keeps them for good. */
const keptIn = new WeakMap<Database, Set<string>>();

const sha256 = (content: string) => createHash("sha256").update(content).digest("hex");

/**
 * The attachments as an outbox row keeps them: a shared file is written to `mail_files` once and
 * named by its hash, any other stays in the row. Call it outside a transaction, so that a hash is
 * remembered only once its row is committed.
 */
export async function keepAttachments(db: Database, attachments: MailAttachment[]): Promise<StoredAttachment[]> {
  let kept = keptIn.get(db);
  if (!kept) keptIn.set(db, (kept = new Set()));
  const missing = new Map<string, string>();
  const stored = attachments.map(({ shared, content, ...file }): StoredAttachment => {
    if (!shared) return { ...file, content };
    const hash = sha256(content);
    if (!kept.has(hash)) missing.set(hash, content);
    return { ...file, sha256: hash };
  });
  if (missing.size > 0) {
    await db
      .insert(mailFiles)
      .values([...missing].map(([hash, content]) => ({ sha256: hash, content })))
      .onConflictDoNothing();
    for (const hash of missing.keys()) kept.add(hash);
  }
  return stored;
}

/** An outbox row's files with their content, read from `mail_files` for those it names by hash. */
export async function attachmentsOf(db: Database, stored: StoredAttachment[]): Promise<MailAttachment[]> {
  const hashes = stored.flatMap((file) => ("sha256" in file ? [file.sha256] : []));
  const contents = new Map(
    hashes.length === 0
      ? []
      : (await db.select().from(mailFiles).where(inArray(mailFiles.sha256, hashes))).map((row) => [
          row.sha256,
          row.content,
        ]),
  );
  return stored.map((file) => {
    if (!("sha256" in file)) return file;
    const { sha256: hash, ...rest } = file;
    const content = contents.get(hash);
    if (content === undefined) throw new Error(`The mail file ${hash} is missing`);
    return { ...rest, content };
  });
}
