import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { installDatabase, openDatabase } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { attachmentsOf } from "~/platform/mail/mail-files.server";
import { OutboxWorker } from "~/platform/mail/outbox-worker.server";
import { smtpTransport } from "~/platform/mail/transport.server";
import { MAIL_TEMPLATES } from "../server/mail-templates";
import { bookingInput } from "../tests/support/booking-fields";
import { createEmptyPostgresDatabase } from "../tests/support/test-database";
import type { ResultRow } from "./lib/results";
import { perSecond } from "./lib/results";
import { postgresForBench } from "./lib/server";
import { postgresPids, processCpuMs } from "./lib/process-cpu";

/** Each round's addresses: every second one pays twice, so a round is 1.5 payments an address. */
const ADDRESSES = 400;
const WARM_UP_ADDRESSES = 100;
const payments = (addresses: number) => addresses * 1.5;
const ORIGIN = "https://site.test";
const FROM = "Jetlane <no-reply@jetlane.example>";
/** What the worker has in flight at most: its batch. The baseline sends as many at a time. */
const IN_FLIGHT = 10;

/** The loopback SMTP sink in a process of its own, so that its CPU is not counted with the sender's. */
async function startSinkProcess() {
  const sink = fileURLToPath(new URL("../tests/support/smtp-sink.mjs", import.meta.url));
  const script = `import(${JSON.stringify(sink)}).then(async ({ startSmtpSink }) => {
    const smtp = await startSmtpSink({ keep: false });
    console.log(smtp.port);
    process.stdin.on("data", () => console.log(smtp.received));
  });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = (async function* () {
    let buffered = "";
    for await (const chunk of child.stdout!) {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
        yield buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
      }
    }
  })();
  const next = async () => Number((await lines.next()).value);
  const port = await next();
  return {
    port,
    async received() {
      child.stdin!.write("?\n");
      return next();
    },
    async stop() {
      child.kill();
      await once(child, "exit");
    },
  };
}

const postgresCpuMs = () => postgresPids().reduce((sum, pid) => sum + processCpuMs(pid), 0);

/** Wall time and CPU (this process, PostgreSQL) of `work`. */
async function measured(work: () => Promise<void>) {
  const cpu = process.cpuUsage();
  const postgres = postgresCpuMs();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, postgresMs: postgresCpuMs() - postgres };
}

/**
 * The outbox worker draining the mails of 600 sandbox payments (each a confirmation and, for a new
 * address, its trial-started mail, as the payments queue them), after 150 to warm it up, over SMTP to a sink on loopback:
 * composed from their templates, stored, sent and marked, a batch at a time. The baseline is
 * nodemailer, through the same transport, sending the very mails the worker sent, as many at a
 * time, with no database and nothing to compose: what sending costs alone.
 */
export async function outboxDrain(): Promise<ResultRow[]> {
  const adminUrl = await postgresForBench();
  if (!adminUrl) return [];
  process.env.APP_SECRET ??= "outbox-bench-secret-".padEnd(40, "x");
  const database = await createEmptyPostgresDatabase(adminUrl, "bench_outbox");
  const handle = await openDatabase({ kind: "postgres", url: database.url });
  // The payment reads the process's database, as the server's requests do.
  installDatabase(handle);
  const sink = await startSinkProcess();
  const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };
  try {
    /** Books and pays for `addresses` addresses (every second one twice), then drains their mails with the worker, then sends them again bare. */
    const round = async (addresses: number) => {
      const before = await sink.received();
      for (let index = 0; index < addresses; index++) {
        // Half the addresses pay twice: their second payment starts no trial, and queues no trial mail.
        const booking = bookingInput({ email: `traveller-${randomUUID().slice(0, 8)}-${index % 2}@example.org` });
        const again = index % 2 === 1 ? [booking, { ...booking, idempotencyKey: randomUUID() }] : [booking];
        for (const each of again) {
          const { orderId } = await createBooking(handle.db, { booking: each, currency: "EUR", userId: null });
          await payForOrder(handle.db, sandboxGateway, { orderId, card, origin: ORIGIN, consentedAt: new Date() });
        }
      }
      const queued = (await handle.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.status, "pending"))).map(
        (row) => row.id,
      );
      const worker = new OutboxWorker({
        db: handle.db,
        transport: smtpTransport(`smtp://127.0.0.1:${sink.port}`),
        from: FROM,
        logger: pino({ level: "silent" }),
        templates: MAIL_TEMPLATES,
        batchSize: IN_FLIGHT,
      });
      const drained = await measured(async () => {
        while ((await worker.runOnce()) > 0);
      });
      await worker.stop();
      const sentByWorker = (await sink.received()) - before;

      const sent = await handle.db
        .select({
          to: outbox.to,
          subject: outbox.subject,
          text: outbox.textBody,
          html: outbox.htmlBody,
          files: outbox.attachments,
        })
        .from(outbox)
        .where(inArray(outbox.id, queued));
      const envelopes = await Promise.all(
        sent.map(async ({ to, subject, text, html, files }) => ({
          from: FROM,
          to,
          subject,
          text,
          html,
          attachments: files ? await attachmentsOf(handle.db, files) : [],
        })),
      );
      const transport = smtpTransport(`smtp://127.0.0.1:${sink.port}`);
      const bare = await measured(async () => {
        for (let start = 0; start < envelopes.length; start += IN_FLIGHT)
          await Promise.all(envelopes.slice(start, start + IN_FLIGHT).map((envelope) => transport.send(envelope)));
      });
      transport.close();
      const sentInAll = (await sink.received()) - before;
      return { queued, drained, bare, sentByWorker, sentInAll };
    };

    // The first round warms the code up (the templates, React, nodemailer), as a running server's is.
    await round(WARM_UP_ADDRESSES);
    const { queued, drained, bare, sentByWorker, sentInAll } = await round(ADDRESSES);

    const mails = queued.length;
    const workerRate = (mails * 1000) / drained.wallMs;
    const bareRate = (mails * 1000) / bare.wallMs;
    const label = `${mails} mails of ${payments(ADDRESSES)} sandbox payments, after ${payments(WARM_UP_ADDRESSES)} to warm up, ${IN_FLIGHT} at a time, to a loopback SMTP server (postgres)`;
    return [
      {
        figure: `Mails/s the outbox worker sends alone, each composed from its template, stored, sent and marked: ${label}`,
        value: perSecond(workerRate),
        baseline: `${perSecond(bareRate)} nodemailer sending the same mails, same transport, no database`,
        ratio: (workerRate / bareRate).toFixed(2),
        pass: null,
      },
      {
        figure: `CPU time per mail, the outbox worker and the bare sending (${label})`,
        value: `worker ${(drained.cpuMs / mails).toFixed(2)} ms, PostgreSQL ${(drained.postgresMs / mails).toFixed(2)} ms`,
        baseline: `${(bare.cpuMs / mails).toFixed(2)} ms bare sending`,
        pass: null,
      },
      {
        figure: `Mails the SMTP server received from the worker, and in all (${label})`,
        value: `${sentByWorker} of ${mails}; ${sentInAll} of ${mails * 2}`,
        goal: "each mail once",
        pass: sentByWorker === mails && sentInAll === mails * 2,
      },
    ];
  } finally {
    await sink.stop();
    installDatabase(undefined);
    await handle.close();
    await database.drop();
  }
}
