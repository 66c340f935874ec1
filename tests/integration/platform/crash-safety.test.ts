import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink.mjs";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// The production server is killed with SIGKILL in the middle of bookings and contact messages, then
// started again on the same data: whatever it acknowledged must be there, whole, and every mail it
// queued must then go out exactly once.

const kind = testDatabaseKind();
const WORKERS = 8;
/** How many acknowledged submissions the server gets to answer before it is killed. */
const ACKNOWLEDGED_BEFORE_KILL = 20;

interface Acknowledged {
  bookings: { idempotencyKey: string; orderId: string }[];
  messages: string[];
}

let clients = 0;
function post(server: ProductionServer, path: string, fields: Record<string, string>) {
  clients += 1;
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(fields),
    headers: { Origin: server.baseUrl, "X-Forwarded-For": `10.9.${(clients >> 8) & 255}.${clients & 255}` },
  });
}

const orderIdIn = (response: Response) =>
  /\/fast-track-payment\/([0-9a-f-]{36})$/.exec(response.headers.get("Location") ?? "")?.[1];

/** Books and writes in from several clients until the server stops answering; `acknowledged` fills as it goes. */
async function driveUntilDown(server: ProductionServer, acknowledged: Acknowledged): Promise<number> {
  let attempts = 0;
  async function client(index: number) {
    for (let turn = 0; ; turn++) {
      attempts += 1;
      try {
        if ((index + turn) % 2 === 0) {
          const idempotencyKey = randomUUID();
          const response = await post(server, "/fast-track-form", bookingFormFields({ idempotencyKey }));
          const orderId = orderIdIn(response);
          if (response.status === 302 && orderId) acknowledged.bookings.push({ idempotencyKey, orderId });
        } else {
          const email = `crash.${randomUUID()}@example.com`;
          const response = await post(server, "/contact", {
            firstName: "Crash",
            lastName: "Test",
            email,
            phone: "+33 1 23 45 67 89",
            message: "Is my message still here after the crash?",
          });
          if (response.status === 302) acknowledged.messages.push(email);
        }
      } catch {
        return; // the server is gone
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, (_, index) => client(index)));
  return attempts;
}

async function rows<T>(handle: DatabaseHandle, query: string): Promise<[T, ...T[]]> {
  return ((await handle.db.execute(query)) as unknown as { rows: [T, ...T[]] }).rows;
}

/** Waits until the sink has received at least `atLeast` mails and then nothing more for a while. */
async function settledMail(sink: SmtpSink, atLeast: number) {
  let seen = -1;
  for (let waited = 0; waited < 60_000; waited += 1_000) {
    if (sink.messages.length >= atLeast && sink.messages.length === seen) return;
    seen = sink.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const tally = (keys: string[]) => keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map());

let sink: SmtpSink | undefined;
const servers: ProductionServer[] = [];

afterAll(async () => {
  for (const server of servers.reverse()) await server.dispose();
  await sink?.close();
});

describe(`a crash of the production server on ${kind}`, () => {
  it("loses nothing it acknowledged, leaves nothing half-written and sends every queued mail once", async () => {
    // Mail stays queued while the first server runs, so that the kill cannot land in a delivery.
    const first = await startProductionServer(kind, { TRUST_PROXY: "true", LOG_LEVEL: "warn" });
    servers.push(first);
    const acknowledged: Acknowledged = { bookings: [], messages: [] };
    const load = driveUntilDown(first, acknowledged);
    while (acknowledged.bookings.length + acknowledged.messages.length < ACKNOWLEDGED_BEFORE_KILL) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.process.kill("SIGKILL");
    const attempts = await load;

    sink = await startSmtpSink();
    const server = await startProductionServer(
      kind,
      { TRUST_PROXY: "true", LOG_LEVEL: "warn", SMTP_URL: `smtp://127.0.0.1:${sink.port}` },
      { dataOf: first, samePort: true },
    );
    servers.push(server);
    // The same submissions again, as a browser retrying them would: the same orders come back.
    const retried = acknowledged.bookings.slice(0, 5);
    for (const { idempotencyKey, orderId } of retried) {
      const again = await post(server, "/fast-track-form", bookingFormFields({ idempotencyKey }));
      expect(orderIdIn(again)).toBe(orderId);
    }
    // Each contact message queues two mails: the acknowledgement and the company's notification.
    await settledMail(sink, acknowledged.messages.length * 2);
    expect(await server.stop()).toBe(0);

    const handle = await openDatabase(
      server.databaseUrl ? { kind: "postgres", url: server.databaseUrl } : { kind: "pglite", dataDir: server.dataDir },
    );
    try {
      const orders = await rows<{ id: string; idempotency_key: string }>(
        handle,
        "select id, idempotency_key from orders",
      );
      const orderIds = new Map(orders.map((order) => [order.idempotency_key, order.id]));
      const bookingsFound = acknowledged.bookings.filter(
        ({ idempotencyKey, orderId }) => orderIds.get(idempotencyKey) === orderId,
      );
      const messageEmails = new Set(
        (await rows<{ email: string }>(handle, "select email from contact_messages")).map((row) => row.email),
      );
      const messagesFound = acknowledged.messages.filter((email) => messageEmails.has(email));
      const [{ orphans }] = await rows<{ orphans: number }>(
        handle,
        "select count(*)::int as orphans from customers c where not exists (select 1 from orders o where o.customer_id = c.id)",
      );
      const [{ unevented }] = await rows<{ unevented: number }>(
        handle,
        "select count(*)::int as unevented from orders o where not exists (select 1 from order_events e where e.order_id = o.id)",
      );
      const queued = await rows<{ to: string; subject: string; status: string }>(
        handle,
        'select "to", subject, status from outbox',
      );
      const delivered = sink.messages.map((mail) => `${mail.envelopeTo.join(",")} ${mail.subject}`);

      console.log(
        [
          `${attempts} submissions from ${WORKERS} clients, the server killed with SIGKILL mid-load, then restarted`,
          `${acknowledged.bookings.length} acknowledged bookings, ${bookingsFound.length} found, ${orphans} customers without an order, ${unevented} orders without history, ${orders.length - new Set(orderIds.keys()).size} duplicate orders`,
          `${acknowledged.messages.length} acknowledged messages, ${messagesFound.length} found`,
          `${queued.length} mails queued, ${delivered.length} delivered, ${queued.filter((mail) => mail.status !== "sent").length} not sent`,
        ].join("\n"),
      );

      expect(bookingsFound.length).toBe(acknowledged.bookings.length);
      expect(messagesFound.length).toBe(acknowledged.messages.length);
      expect({ orphans, unevented }).toEqual({ orphans: 0, unevented: 0 });
      expect(queued.filter((mail) => mail.status !== "sent")).toEqual([]);
      expect(tally(delivered)).toEqual(tally(queued.map((mail) => `${mail.to} ${mail.subject}`)));
    } finally {
      await handle.close();
    }
  }, 240_000);
});
