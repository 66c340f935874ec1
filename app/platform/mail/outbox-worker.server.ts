import { AsyncResource } from "node:async_hooks";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { Env } from "~/env.server";
import { countMailDelivery } from "~/platform/observability/metrics.server";
import { logger as processLogger } from "~/logger.server";
import type { MailAttachment } from "./attachment";
import { attachmentsOf, keepAttachments } from "./mail-files.server";
import type { MailTemplate } from "./outbox.server";
import { smtpTransport, type MailTransport } from "./transport.server";

export interface OutboxWorkerOptions {
  db: Database;
  /** Undefined when SMTP_URL is unset: mails then stay queued and are only logged. */
  transport: MailTransport | undefined;
  /**
   * Without a transport: the folder each held mail is also copied to, as a page to open in a
   * browser, so that a site run without SMTP (a fresh clone) can still read its sign-in codes.
   */
  heldMailFolder?: string;
  from: string;
  /** The templates this worker composes queued mails with (`templateMailInsert`); it leaves other templates' mails alone. */
  templates?: readonly MailTemplate<never>[];
  logger: Pick<Logger, "info" | "warn" | "error">;
  pollIntervalMs?: number;
  batchSize?: number;
  /** After this many failed attempts a mail is given up as 'failed'. */
  maxAttempts?: number;
  /** Delay before the first retry; it doubles with every further failure, up to `maxRetryDelayMs`. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** How long a claimed mail belongs to this worker before another one may take it (after a crash). */
  leaseMs?: number;
}

type ClaimedMail = Pick<
  typeof outbox.$inferSelect,
  "id" | "to" | "subject" | "textBody" | "htmlBody" | "attachments" | "template" | "templateData" | "attempts"
>;

/** A mail's body and files, as sent. */
type ComposedBody = { textBody: string; htmlBody: string | null; attachments: MailAttachment[] | null };

/** A composed row's body, with the content of the files it names by hash. */
async function withFiles(
  db: Database,
  mail: Pick<typeof outbox.$inferSelect, "textBody" | "htmlBody" | "attachments">,
): Promise<ComposedBody> {
  return { ...mail, attachments: mail.attachments && (await attachmentsOf(db, mail.attachments)) };
}

/** What a worker reads of a mail to send it or copy it. */
const mailColumns = {
  id: outbox.id,
  to: outbox.to,
  subject: outbox.subject,
  textBody: outbox.textBody,
  htmlBody: outbox.htmlBody,
  attachments: outbox.attachments,
  template: outbox.template,
  templateData: outbox.templateData,
};

/** The mails a worker with these templates can send: composed ones, and those of its templates. */
function composable(templateNames: string[]) {
  return templateNames.length
    ? or(isNull(outbox.template), inArray(outbox.template, templateNames))
    : isNull(outbox.template);
}

/**
 * The due mails a claim takes, soonest due first, skipping those another worker has locked. Its
 * status condition is written out, not a parameter, so that the planner reads it by
 * `outbox_due_index`, a batch of rows, however long the queue behind it.
 */
export function dueMails(db: Database, batchSize: number, templateNames: string[]) {
  return db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        sql`${outbox.status} in ('pending', 'sending')`,
        lte(outbox.nextAttemptAt, sql`now()`),
        composable(templateNames),
      ),
    )
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(batchSize)
    .for("update", { skipLocked: true });
}

/** Without SMTP: the next held mails after `cursor`, in the order they were queued (by `outbox_held_index`). */
export function heldMails(
  db: Database,
  batchSize: number,
  templateNames: string[],
  cursor?: { createdAt: string; id: string },
) {
  return db
    .select({
      ...mailColumns,
      // As text, to keep the microseconds a JavaScript Date would drop.
      createdAt: sql<string>`${outbox.createdAt}::text`,
    })
    .from(outbox)
    .where(
      and(
        sql`${outbox.status} = 'pending'`,
        composable(templateNames),
        cursor
          ? sql`(${outbox.createdAt}, ${outbox.id}) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(outbox.createdAt), asc(outbox.id))
    .limit(batchSize);
}

const inMilliseconds = (ms: number) => sql`now() + (${Math.round(ms)}::integer * interval '1 millisecond')`;

/**
 * Sends what the outbox holds. Each pass claims due mails in a short transaction with
 * `FOR UPDATE SKIP LOCKED` and leases them (status 'sending', next attempt pushed out), then sends
 * outside any transaction, so several instances never send one mail twice and a slow SMTP server
 * never holds a database lock. A mail that fails is retried with exponential backoff.
 */
export class OutboxWorker {
  private readonly options: Required<Omit<OutboxWorkerOptions, "transport" | "heldMailFolder" | "templates">> &
    Pick<OutboxWorkerOptions, "transport" | "heldMailFolder">;
  private readonly templates: ReadonlyMap<string, MailTemplate<never>>;
  private readonly templateNames: string[];
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private passRequested = false;
  private stopped = true;
  /** Without a transport: the last held mail already logged, so each is logged once. */
  private heldCursor: { createdAt: string; id: string } | undefined;
  /**
   * Runs work in the async context the worker was made in. A request that nudges the worker must not
   * lend its context to the passes that follow, nor to the timers they set: every later line the
   * worker logs would carry that request's id.
   */
  private readonly detached = AsyncResource.bind((work: () => void) => work());

  constructor(options: OutboxWorkerOptions) {
    this.options = {
      pollIntervalMs: 5_000,
      batchSize: 10,
      maxAttempts: 8,
      retryBaseMs: 30_000,
      maxRetryDelayMs: 60 * 60_000,
      leaseMs: 5 * 60_000,
      ...options,
    };
    this.templates = new Map((options.templates ?? []).map((template) => [template.name, template]));
    this.templateNames = [...this.templates.keys()];
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    if (!this.options.transport) {
      this.options.logger.warn("SMTP_URL is not set: e-mails stay queued in the outbox until it is");
    }
    this.nudge();
  }

  /** Runs a pass now (or right after the one under way): call it once a transaction that queued mail commits. */
  nudge() {
    if (this.stopped) return;
    if (this.pass) {
      this.passRequested = true;
      return;
    }
    clearTimeout(this.timer);
    this.detached(() => {
      this.pass = this.runPasses().finally(() => {
        this.pass = undefined;
        if (!this.stopped) this.timer = setTimeout(() => this.nudge(), this.options.pollIntervalMs).unref();
      });
    });
  }

  /** Stops polling and waits for the mail being sent, so the database can close after it. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
    this.options.transport?.close();
  }

  private async runPasses() {
    do {
      this.passRequested = false;
      try {
        // A full batch means more may be waiting: keep going instead of waiting for the next poll.
        while ((await this.runOnce()) === this.options.batchSize && !this.stopped);
      } catch (error) {
        this.options.logger.error({ err: error }, "outbox pass failed");
      }
    } while (this.passRequested && !this.stopped);
  }

  /** One pass: claims up to a batch of due mails and sends them. Returns how many it claimed. */
  async runOnce(): Promise<number> {
    const { transport } = this.options;
    if (!transport) return this.logHeldMails();
    const claimed = await this.claimDueMails();
    // Different people's mails go out side by side, over every connection the transport has (one
    // after another used one, each step waiting its turn in the event loop); one person's go out
    // in the order claimed.
    const byRecipient = new Map<string, ClaimedMail[]>();
    for (const mail of claimed) {
      const recipient = mail.to.toLowerCase();
      const mails = byRecipient.get(recipient);
      if (mails) mails.push(mail);
      else byRecipient.set(recipient, [mail]);
    }
    const outcomes = await Promise.allSettled(
      [...byRecipient.values()].map(async (mails) => {
        for (const mail of mails) await this.deliver(mail, transport);
      }),
    );
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
    return claimed.length;
  }

  private claimDueMails(): Promise<ClaimedMail[]> {
    const { db, batchSize, leaseMs } = this.options;
    return db.transaction(async (tx) => {
      const due = await dueMails(tx, batchSize, this.templateNames);
      if (due.length === 0) return [];
      const claimed = await tx
        .update(outbox)
        .set({ status: "sending", attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: inMilliseconds(leaseMs) })
        .where(
          inArray(
            outbox.id,
            due.map((row) => row.id),
          ),
        )
        .returning({ ...mailColumns, attempts: outbox.attempts });
      // An update returns its rows in no particular order: back to the order they were due in.
      const place = new Map(due.map((row, index) => [row.id, index]));
      return claimed.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
    });
  }

  /**
   * The mail's body and files: as queued, or composed now from its template and stored, so that
   * every later attempt (and the back office) has the very mail this one sends. Undefined when the
   * row is gone (an erasure deleted it meanwhile).
   */
  private async composed(
    mail: Pick<ClaimedMail, "id" | "textBody" | "htmlBody" | "attachments" | "template" | "templateData">,
  ): Promise<ComposedBody | undefined> {
    const { db } = this.options;
    if (!mail.template) return withFiles(db, mail);
    const template = this.templates.get(mail.template);
    if (!template)
      throw new Error(`mail ${mail.id} is of template "${mail.template}", which this worker does not know`);
    const { text, html, attachments = [] } = await template.compose(mail.templateData as never, db);
    const files = await keepAttachments(db, attachments);
    const [stored] = await db
      .update(outbox)
      .set({
        textBody: text,
        htmlBody: html ?? null,
        attachments: files.length ? files : null,
        template: null,
        templateData: null,
      })
      .where(and(eq(outbox.id, mail.id), isNotNull(outbox.template)))
      .returning({ id: outbox.id });
    if (stored) return { textBody: text, htmlBody: html ?? null, attachments: attachments.length ? attachments : null };
    // Composed by another worker meanwhile (one without SMTP composes what it holds): send what it stored.
    const [now] = await db
      .select({ textBody: outbox.textBody, htmlBody: outbox.htmlBody, attachments: outbox.attachments })
      .from(outbox)
      .where(eq(outbox.id, mail.id));
    return now && withFiles(db, now);
  }

  private async deliver(mail: ClaimedMail, transport: MailTransport) {
    const { db, from, logger, maxAttempts } = this.options;
    try {
      const body = await this.composed(mail);
      if (!body) return;
      await transport.send({
        from,
        to: mail.to,
        subject: mail.subject,
        text: body.textBody,
        html: body.htmlBody,
        attachments: body.attachments ?? [],
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const givenUp = mail.attempts >= maxAttempts;
      countMailDelivery(givenUp ? "failed" : "retry");
      await db
        .update(outbox)
        .set(
          givenUp
            ? { status: "failed", lastError: reason.slice(0, 1000), failedAt: sql`now()` }
            : {
                status: "pending",
                lastError: reason.slice(0, 1000),
                nextAttemptAt: inMilliseconds(this.retryDelayMs(mail.attempts)),
              },
        )
        .where(eq(outbox.id, mail.id));
      logger.warn(
        { mailId: mail.id, to: mail.to, subject: mail.subject, attempts: mail.attempts, reason },
        givenUp ? "mail failed, giving up" : "mail failed, will retry",
      );
      return;
    }
    await db
      .update(outbox)
      .set({ status: "sent", sentAt: sql`now()`, lastError: null })
      .where(eq(outbox.id, mail.id));
    countMailDelivery("sent");
    logger.info({ mailId: mail.id, to: mail.to, subject: mail.subject }, "mail sent");
  }

  private retryDelayMs(failedAttempts: number) {
    const { retryBaseMs, maxRetryDelayMs } = this.options;
    return Math.min(retryBaseMs * 2 ** (failedAttempts - 1), maxRetryDelayMs);
  }

  /**
   * Without SMTP nothing is sent; each newly queued mail is logged once (recipient and subject, never
   * the body) and copied to the held-mail folder when there is one.
   */
  private async logHeldMails(): Promise<number> {
    const { db, logger, batchSize, heldMailFolder } = this.options;
    const held = await heldMails(db, batchSize, this.templateNames, this.heldCursor);
    for (const mail of held) {
      let body: ComposedBody | undefined;
      try {
        body = await this.composed(mail);
      } catch (error) {
        logger.error({ err: error, mailId: mail.id }, "mail could not be composed");
        continue;
      }
      if (!body) continue;
      const copy = heldMailFolder ? await writeHeldMailCopy(heldMailFolder, { ...mail, ...body }) : undefined;
      logger.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject, ...(copy && { copy }) },
        "mail queued, not sent: SMTP_URL is not set",
      );
    }
    const last = held.at(-1);
    if (last) this.heldCursor = { createdAt: last.createdAt, id: last.id };
    return held.length;
  }
}

/** A held mail as a page of its own in `folder`, named by when it was queued; returns the file's path. */
async function writeHeldMailCopy(
  folder: string,
  mail: { id: string; to: string; subject: string; textBody: string; htmlBody: string | null; createdAt: string },
): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const queuedAt = new Date(mail.createdAt)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const file = join(folder, `${queuedAt}-${mail.id.slice(0, 8)}.html`);
  const heading = `<p style="font:14px sans-serif;background:#fff3cd;padding:8px">Not sent (SMTP_URL is not set).<br>To: ${escapeHtml(mail.to)}<br>Subject: ${escapeHtml(mail.subject)}</p>`;
  const body = mail.htmlBody ?? `<pre>${escapeHtml(mail.textBody)}</pre>`;
  await writeFile(
    file,
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title>${heading}${body}`,
    {
      mode: 0o600,
    },
  );
  return file;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

let processWorker: OutboxWorker | undefined;

/** Starts the process's worker from the environment; the server does this once at boot. */
export function startOutboxWorker(
  db: Database,
  config: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "DATA_DIR">,
  templates: readonly MailTemplate<never>[],
): OutboxWorker {
  const worker = new OutboxWorker({
    db,
    templates,
    transport: config.SMTP_URL ? smtpTransport(config.SMTP_URL) : undefined,
    heldMailFolder: join(config.DATA_DIR, "mailbox"),
    from: config.MAIL_FROM,
    logger: processLogger,
  });
  worker.start();
  processWorker = worker;
  return worker;
}

/** Asks the process's worker to send now; call it after the transaction that queued mail has committed. */
export function nudgeOutbox() {
  processWorker?.nudge();
}
