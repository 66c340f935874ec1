import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql, type SQLWrapper } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { enqueueMail, templateMailInsert, type MailTemplate } from "~/platform/mail/outbox.server";
import { dueMails, heldMails, OutboxWorker, type OutboxWorkerOptions } from "~/platform/mail/outbox-worker.server";
import { processMetrics } from "~/platform/observability/metrics.server";
import { currentRequestId, withRequestId } from "~/platform/observability/request-id.server";
import { smtpTransport, type MailTransport } from "~/platform/mail/transport.server";
import { growth } from "../../support/metrics-text";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../../support/smtp-sink.mjs";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";

const kind = testDatabaseKind();
const FROM = "Jetlane <no-reply@jetlane.example>";

let handle: TestDatabase;
let db: Database;
let sink: SmtpSink;
/** Whether the sink refuses the next message; flipped by the retry tests. */
let refuse: (message: ReceivedMail) => boolean = () => false;
const workers: OutboxWorker[] = [];

function temporaryFailure() {
  return Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
}

function worker(options: Partial<OutboxWorkerOptions> = {}) {
  const created = new OutboxWorker({
    db,
    transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`),
    from: FROM,
    logger: pino({ level: "silent" }),
    ...options,
  });
  workers.push(created);
  return created;
}

async function rows() {
  return db.select().from(outbox).orderBy(outbox.subject);
}

/** Lets time pass for queued retries: every waiting mail becomes due now. */
async function makeEverythingDue() {
  await db.update(outbox).set({ nextAttemptAt: sql`now()` });
}

async function secondsUntilNextAttempt(id: string) {
  const [row] = await db
    .select({ seconds: sql<number>`extract(epoch from (${outbox.nextAttemptAt} - now()))::float` })
    .from(outbox)
    .where(eq(outbox.id, id));
  return Number(row!.seconds);
}

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  sink = await startSmtpSink({ accept: (message) => (refuse(message) ? temporaryFailure() : undefined) });
});

afterAll(async () => {
  await sink.close();
  await handle.destroy();
});

beforeEach(async () => {
  await db.delete(outbox);
  sink.messages.length = 0;
  refuse = () => false;
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((created) => created.stop()));
});

describe(`the outbox worker on ${kind}`, () => {
  it("delivers a queued mail over SMTP, with its text and HTML bodies, and marks it sent", async () => {
    await enqueueMail(db, {
      to: "traveller@example.org",
      subject: "Your booking",
      text: "Hello in plain text",
      html: "<p>Hello in <strong>HTML</strong></p>",
    });

    expect(await worker().runOnce()).toBe(1);

    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toMatchObject({
      envelopeTo: ["traveller@example.org"],
      from: FROM,
      subject: "Your booking",
      text: "Hello in plain text",
      html: "<p>Hello in <strong>HTML</strong></p>",
    });
    const [row] = await rows();
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("stores attachments with the queued mail and sends an inline image by its Content-ID", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString("base64");
    const calendar = Buffer.from("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n").toString("base64");
    await enqueueMail(db, {
      to: "traveller@example.org",
      subject: "With files",
      text: "See the QR code",
      html: '<p><img src="cid:qr" alt="QR"></p>',
      attachments: [
        { filename: "qr.png", contentType: "image/png", content: png, cid: "qr" },
        { filename: "flight.ics", contentType: "text/calendar", content: calendar },
      ],
    });
    const [queued] = await rows();
    expect(queued!.attachments).toHaveLength(2);

    expect(await worker().runOnce()).toBe(1);

    const [message] = sink.messages;
    expect(message!.html).toContain('src="cid:qr"');
    expect(message!.attachments).toEqual([
      expect.objectContaining({
        filename: "qr.png",
        contentType: "image/png",
        cid: "qr",
        disposition: "inline",
        content: png,
      }),
      expect.objectContaining({ filename: "flight.ics", contentType: "text/calendar", content: calendar }),
    ]);
  });

  it("retries after an SMTP failure with a doubling delay, then delivers", async () => {
    const before = await processMetrics();
    await enqueueMail(db, { to: "a@example.org", subject: "Retry me", text: "body" });
    const retrying = worker({ retryBaseMs: 60_000 });
    refuse = () => true;

    await retrying.runOnce();
    let [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(row!.lastError).toMatch(/451/);
    expect(await secondsUntilNextAttempt(row!.id)).toBeGreaterThan(55);
    expect(await secondsUntilNextAttempt(row!.id)).toBeLessThanOrEqual(60);
    expect(await retrying.runOnce(), "not due yet").toBe(0);

    await makeEverythingDue();
    await retrying.runOnce();
    [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    expect(await secondsUntilNextAttempt(row!.id)).toBeGreaterThan(115);

    refuse = () => false;
    await makeEverythingDue();
    await retrying.runOnce();
    [row] = await rows();
    expect(row).toMatchObject({ status: "sent", attempts: 3, lastError: null });
    expect(sink.messages.map((message) => message.subject)).toEqual(["Retry me"]);
    const after = await processMetrics();
    const deliveries = (outcome: string) => growth(before, after, "outbox_deliveries_total", { outcome });
    expect([deliveries("retry"), deliveries("sent"), deliveries("failed")]).toEqual([2, 1, 0]);
  });

  it("gives a mail up as failed after the maximum number of attempts", async () => {
    const before = await processMetrics();
    await enqueueMail(db, { to: "a@example.org", subject: "Never delivered", text: "body" });
    const giving = worker({ maxAttempts: 2, retryBaseMs: 1 });
    refuse = () => true;

    await giving.runOnce();
    await makeEverythingDue();
    await giving.runOnce();
    await makeEverythingDue();

    expect(await giving.runOnce()).toBe(0);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "failed", attempts: 2, sentAt: null });
    expect(row!.lastError).toMatch(/451/);
    expect(sink.messages).toHaveLength(0);
    const after = await processMetrics();
    const deliveries = (outcome: string) => growth(before, after, "outbox_deliveries_total", { outcome });
    expect([deliveries("retry"), deliveries("failed"), deliveries("sent")]).toEqual([1, 1, 0]);
  });

  it("never sends a mail twice when two workers race for the same outbox", async () => {
    const subjects = Array.from({ length: 40 }, (_, index) => `Race ${String(index).padStart(2, "0")}`);
    for (const subject of subjects) await enqueueMail(db, { to: "race@example.org", subject, text: subject });
    // On PostgreSQL the second worker has a connection pool of its own, as a second instance would.
    const second = kind === "postgres" ? await openDatabase({ kind: "postgres", url: handle.url! }) : undefined;
    try {
      const racers = [worker({ batchSize: 3 }), worker({ batchSize: 3, db: second?.db ?? db })];
      const claimedBy = await Promise.all(
        racers.map(async (racer) => {
          let claimed = 0;
          for (let count = await racer.runOnce(); count > 0; count = await racer.runOnce()) claimed += count;
          return claimed;
        }),
      );

      expect(claimedBy[0]! + claimedBy[1]!).toBe(40);
      expect(
        claimedBy.every((count) => count > 0),
        `both workers took part: ${claimedBy}`,
      ).toBe(true);
      expect(sink.messages.map((message) => message.subject).sort()).toEqual(subjects);
      expect((await rows()).every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    } finally {
      await second?.close();
    }
  });

  it.skipIf(kind !== "postgres")("skips a mail another transaction holds instead of waiting for it", async () => {
    for (const subject of ["Held", "Free 1", "Free 2"])
      await enqueueMail(db, { to: "a@example.org", subject, text: "x" });
    const other = new pg.Client({ connectionString: handle.url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query(`select id from outbox where subject = 'Held' for update`);

      expect(await worker().runOnce()).toBe(2);
      expect(sink.messages.map((message) => message.subject).sort()).toEqual(["Free 1", "Free 2"]);

      await other.query("rollback");
      expect(await worker().runOnce()).toBe(1);
      expect(sink.messages.map((message) => message.subject)).toContain("Held");
    } finally {
      await other.end();
    }
  });

  it("sends a batch's mails to different people side by side, and one person's in the order they were queued", async () => {
    const queued = [
      ["ann@example.org", "Ann 1"],
      ["bob@example.org", "Bob 1"],
      ["ANN@example.org", "Ann 2"],
    ];
    for (const [to, subject] of queued) await enqueueMail(db, { to: to!, subject: subject!, text: "x" });
    // A server that takes each mail and answers only when the test says so.
    const started: string[] = [];
    const answer = new Map<string, () => void>();
    const transport: MailTransport = {
      send: (mail) =>
        new Promise((resolve) => {
          started.push(mail.subject);
          answer.set(mail.subject, resolve);
        }),
      close: () => {},
    };
    const pass = worker({ transport }).runOnce();

    await expect.poll(() => [...started].sort(), { timeout: 5_000 }).toEqual(["Ann 1", "Bob 1"]);
    answer.get("Ann 1")!();
    await expect.poll(() => started.at(-1), { timeout: 5_000 }).toBe("Ann 2");
    answer.get("Bob 1")!();
    answer.get("Ann 2")!();

    expect(await pass).toBe(3);
    expect(started).toHaveLength(3);
    expect((await rows()).map((row) => [row.subject, row.status])).toEqual([
      ["Ann 1", "sent"],
      ["Ann 2", "sent"],
      ["Bob 1", "sent"],
    ]);
  });

  it("sends as soon as it is nudged, without waiting for the next poll", async () => {
    const running = worker({ pollIntervalMs: 60_000 });
    running.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await enqueueMail(db, { to: "soon@example.org", subject: "Right away", text: "x" });

    running.nudge();
    await expect.poll(() => sink.messages.length, { timeout: 5_000 }).toBe(1);
    await running.stop();
    expect((await rows())[0]).toMatchObject({ status: "sent" });
  });

  it("works apart from the request that nudges it: none of its lines carry that request's id", async () => {
    const lines: { msg: string; requestId?: string }[] = [];
    // The app's logger names the request being handled the same way (app/logger.server.ts).
    const mixin = () => ({ requestId: currentRequestId() });
    const logger = pino({ level: "info", mixin }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const running = worker({ pollIntervalMs: 50, logger });
    running.start();
    await new Promise((resolve) => setTimeout(resolve, 100));

    await enqueueMail(db, { to: "booked@example.org", subject: "Your booking", text: "x" });
    withRequestId("the-booking-request", () => running.nudge());
    await expect.poll(() => sink.messages.length, { timeout: 5_000 }).toBe(1);
    // Sent by a later poll, whose timer the nudged pass set.
    await enqueueMail(db, { to: "other@example.org", subject: "Another one", text: "x" });
    await expect.poll(() => sink.messages.length, { timeout: 5_000 }).toBe(2);
    await running.stop();

    expect(lines.filter((line) => line.msg === "mail sent")).toHaveLength(2);
    expect(lines.map((line) => line.requestId)).toEqual(lines.map(() => undefined));
  });

  it("without SMTP keeps mails queued and logs each once, recipient and subject only", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const holding = worker({ transport: undefined, logger });
    await enqueueMail(db, { to: "held@example.org", subject: "Held back", text: "SECRET BODY", html: "<p>SECRET</p>" });

    await holding.runOnce();
    await holding.runOnce();
    await enqueueMail(db, { to: "later@example.org", subject: "Held later", text: "SECRET BODY 2" });
    await holding.runOnce();

    expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    const logged = lines.map((line) => [line.to, line.subject]);
    expect(logged).toEqual([
      ["held@example.org", "Held back"],
      ["later@example.org", "Held later"],
    ]);
    expect(JSON.stringify(lines)).not.toContain("SECRET");
  });

  it("without SMTP also copies each held mail to the held-mail folder, as a page to read", async () => {
    const folder = mkdtempSync(join(tmpdir(), "held-mail-"));
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const holding = worker({ transport: undefined, logger, heldMailFolder: join(folder, "mailbox") });
    await enqueueMail(db, {
      to: "held@example.org",
      subject: "Code <inside>",
      text: "text",
      html: "<p>Your code: 123456</p>",
    });
    await enqueueMail(db, { to: "plain@example.org", subject: "Plain", text: "Only <text> 654321" });

    await holding.runOnce();

    const files = readdirSync(join(folder, "mailbox")).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8}\.html$/);
    const pages = files.map((file) => readFileSync(join(folder, "mailbox", file), "utf8"));
    expect(pages.join()).toContain("<p>Your code: 123456</p>");
    expect(pages.join()).toContain("Subject: Code &#60;inside&#62;");
    expect(pages.join()).toContain("<pre>Only &#60;text&#62; 654321</pre>");
    expect(statSync(join(folder, "mailbox", files[0]!)).mode & 0o777).toBe(0o600);
    expect(lines.map((line) => line.copy).sort()).toEqual(files.map((file) => join(folder, "mailbox", file)));
    expect((await rows()).map((row) => row.status)).toEqual(["pending", "pending"]);
    expect(JSON.stringify(lines)).not.toContain("123456");
  });
});

/** The kinds of a plan's nodes and the indexes they read, from `explain (format json)`. */
async function planOf(query: SQLWrapper) {
  const result = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
    rows: { "QUERY PLAN": unknown }[];
  };
  const raw = result.rows[0]!["QUERY PLAN"];
  type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };
  const [{ Plan }] = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const nodes: string[] = [];
  const indexes: string[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node["Node Type"]);
    if (node["Index Name"]) indexes.push(node["Index Name"]);
    node.Plans?.forEach(walk);
  };
  walk(Plan);
  return { nodes, indexes };
}

describe(`the outbox worker's reads behind a long queue, on ${kind}`, () => {
  it("claims a batch, and reads held mails a batch at a time, by an index of the unsent mails: no scan or sort of the queue or of the mails sent before", async () => {
    await db.execute(sql`
      insert into ${outbox} ("to", subject, text_body, status, next_attempt_at, created_at)
      select 'guest' || n || '@example.org', 'Queued ' || n, 'x',
        case when n % 2 = 0 then 'sent' else 'pending' end,
        now() - n * interval '1 second', now() - n * interval '1 second'
      from generate_series(1, 6000) as n`);
    await db.execute(sql`analyze ${outbox}`);
    const [oldest] = await heldMails(db, 1, []);

    for (const [query, index] of [
      [dueMails(db, 10, ["greeting"]), "outbox_due_index"],
      [heldMails(db, 10, ["greeting"]), "outbox_held_index"],
      [heldMails(db, 10, [], oldest), "outbox_held_index"],
    ] as const) {
      const plan = await planOf(query);
      expect(plan.nodes).not.toContain("Sort");
      expect(plan.nodes).not.toContain("Seq Scan");
      expect(plan.indexes).toEqual([index]);
    }
  });
});

describe(`mails the outbox worker composes from their template, on ${kind}`, () => {
  /** How many times the template composed, and what it composed last. */
  let composed: string[] = [];
  const greeting: MailTemplate<{ name: string; code: string }> = {
    name: "greeting",
    subject: ({ name }) => `Hello ${name}`,
    async compose({ name, code }) {
      composed.push(name);
      return {
        text: `Dear ${name}, your code is ${code}.`,
        html: `<p>Dear ${name}, your code is <b>${code}</b>.</p>`,
        attachments: [
          { filename: "code.txt", contentType: "text/plain", content: Buffer.from(code).toString("base64") },
        ],
      };
    },
  };
  const failing: MailTemplate<{ name: string }> = {
    name: "failing",
    subject: ({ name }) => `Broken ${name}`,
    compose: () => Promise.reject(new Error("the template broke")),
  };

  beforeEach(() => {
    composed = [];
  });

  it("queues the data and the subject only; the worker composes the mail once, stores it, and sends what it stored", async () => {
    await db.execute(templateMailInsert(greeting, { to: "ann@example.org", data: { name: "Ann", code: "K7QM" } }));
    expect(await rows()).toMatchObject([
      {
        subject: "Hello Ann",
        textBody: "",
        htmlBody: null,
        attachments: null,
        template: "greeting",
        templateData: { name: "Ann", code: "K7QM" },
        status: "pending",
      },
    ]);

    expect(await worker({ templates: [greeting] }).runOnce()).toBe(1);

    expect(composed).toEqual(["Ann"]);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toMatchObject({
      envelopeTo: ["ann@example.org"],
      subject: "Hello Ann",
      text: "Dear Ann, your code is K7QM.",
      html: "<p>Dear Ann, your code is <b>K7QM</b>.</p>",
    });
    expect(sink.messages[0]!.attachments.map((file) => [file.filename, file.content])).toEqual([
      ["code.txt", Buffer.from("K7QM").toString("base64")],
    ]);
    expect(await rows()).toMatchObject([
      {
        status: "sent",
        attempts: 1,
        textBody: "Dear Ann, your code is K7QM.",
        htmlBody: "<p>Dear Ann, your code is <b>K7QM</b>.</p>",
        attachments: [{ filename: "code.txt" }],
        template: null,
        templateData: null,
      },
    ]);
  });

  it("leaves a mail of a template it does not know to a worker that knows it", async () => {
    await db.execute(templateMailInsert(greeting, { to: "ann@example.org", data: { name: "Ann", code: "K7QM" } }));
    await enqueueMail(db, { to: "bob@example.org", subject: "Plain", text: "x" });

    expect(await worker().runOnce()).toBe(1);
    expect(sink.messages.map((message) => message.subject)).toEqual(["Plain"]);
    expect(await worker({ templates: [greeting] }).runOnce()).toBe(1);
    expect(sink.messages.map((message) => message.subject)).toEqual(["Plain", "Hello Ann"]);
  });

  it("composes each mail once and sends it once when two workers race, and again when a worker runs twice", async () => {
    const names = Array.from({ length: 30 }, (_, index) => `Guest ${String(index).padStart(2, "0")}`);
    for (const name of names) {
      await db.execute(templateMailInsert(greeting, { to: "race@example.org", data: { name, code: name.slice(-2) } }));
    }
    const second = kind === "postgres" ? await openDatabase({ kind: "postgres", url: handle.url! }) : undefined;
    try {
      const racers = [
        worker({ batchSize: 3, templates: [greeting] }),
        worker({ batchSize: 3, templates: [greeting], db: second?.db ?? db }),
      ];
      const claimedBy = await Promise.all(
        racers.map(async (racer) => {
          let claimed = 0;
          for (let count = await racer.runOnce(); count > 0; count = await racer.runOnce()) claimed += count;
          return claimed;
        }),
      );
      expect(
        claimedBy.every((count) => count > 0),
        `both workers took part: ${claimedBy}`,
      ).toBe(true);
      expect(await racers[0]!.runOnce()).toBe(0);

      expect(composed.sort()).toEqual(names);
      expect(sink.messages.map((message) => message.subject).sort()).toEqual(names.map((name) => `Hello ${name}`));
      expect((await rows()).every((row) => row.status === "sent" && row.attempts === 1 && !row.template)).toBe(true);
    } finally {
      await second?.close();
    }
  });

  it("retries a failed sending with the mail it composed the first time, without composing it again", async () => {
    refuse = () => true;
    const sender = worker({ templates: [greeting] });
    await db.execute(templateMailInsert(greeting, { to: "ann@example.org", data: { name: "Ann", code: "K7QM" } }));
    expect(await sender.runOnce()).toBe(1);
    expect((await rows())[0]).toMatchObject({
      status: "pending",
      textBody: "Dear Ann, your code is K7QM.",
      template: null,
    });

    refuse = () => false;
    await makeEverythingDue();
    expect(await sender.runOnce()).toBe(1);
    expect(composed).toEqual(["Ann"]);
    expect(sink.messages.map((message) => message.text)).toEqual(["Dear Ann, your code is K7QM."]);
  });

  it("counts a template that throws as a failed attempt, keeping the data to compose from for the next", async () => {
    await db.execute(templateMailInsert(failing, { to: "ann@example.org", data: { name: "Ann" } }));
    expect(await worker({ templates: [failing] }).runOnce()).toBe(1);
    expect(sink.messages).toHaveLength(0);
    expect((await rows())[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "the template broke",
      template: "failing",
      templateData: { name: "Ann" },
    });
  });

  it("does not send a mail deleted while it was being composed (an erasure)", async () => {
    const erasing: MailTemplate<{ name: string }> = {
      name: "erased",
      subject: ({ name }) => `Erased ${name}`,
      async compose({ name }) {
        await db.delete(outbox);
        return { text: `Dear ${name}` };
      },
    };
    await db.execute(templateMailInsert(erasing, { to: "ann@example.org", data: { name: "Ann" } }));
    expect(await worker({ templates: [erasing] }).runOnce()).toBe(1);
    expect(sink.messages).toHaveLength(0);
  });

  it("without SMTP composes each held mail, so that its copy and the back office show it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "held-mail-"));
    const holding = worker({
      transport: undefined,
      templates: [greeting],
      logger: pino({ level: "silent" }),
      heldMailFolder: join(folder, "mailbox"),
    });
    await db.execute(templateMailInsert(greeting, { to: "ann@example.org", data: { name: "Ann", code: "K7QM" } }));

    await holding.runOnce();
    await holding.runOnce();

    expect(composed).toEqual(["Ann"]);
    const [file] = readdirSync(join(folder, "mailbox"));
    expect(readFileSync(join(folder, "mailbox", file!), "utf8")).toContain(
      "<p>Dear Ann, your code is <b>K7QM</b>.</p>",
    );
    expect(await rows()).toMatchObject([
      { status: "pending", textBody: "Dear Ann, your code is K7QM.", template: null, templateData: null },
    ]);
  });
});
