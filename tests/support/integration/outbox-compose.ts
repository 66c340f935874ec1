import type { Database } from "~/db/client.server";
import { OutboxWorker } from "~/platform/mail/outbox-worker.server";
import { MAIL_TEMPLATES } from "../../../server/mail-templates";

/**
 * Composes the mails the outbox holds as data, as the server's worker does before it sends them,
 * with its templates; nothing is sent (no SMTP). A mail that cannot be composed fails the test.
 */
export async function composeQueuedMails(db: Database) {
  const worker = new OutboxWorker({
    db,
    transport: undefined,
    from: "test@example.com",
    templates: MAIL_TEMPLATES,
    logger: {
      info() {},
      warn() {},
      error(details: unknown) {
        throw new Error(`the outbox worker failed: ${JSON.stringify(details)}`);
      },
    },
  });
  while ((await worker.runOnce()) > 0);
}
