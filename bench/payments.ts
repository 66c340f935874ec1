import { sandboxPaymentFields } from "../tests/support/sandbox-card";
import { startSmtpSink, type SmtpSink } from "../tests/support/smtp-sink.mjs";
import { bookingsOnlyLua, bookOrders } from "./lib/booking-load";
import {
  compareUnderLoad,
  cpuPerRequest,
  failedRequests,
  generatorBound,
  generatorNote,
  type ProcessGroups,
} from "./lib/load";
import { orderQueue } from "./lib/order-queue";
import { checkPayments } from "./lib/payment-checks";
import { postgresPids } from "./lib/process-cpu";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, startServer, type BenchServer, type DatabaseKind } from "./lib/server";
import { confirmAtStripe, startStripeSite } from "./lib/stripe-site";
import { loadRounds, type BenchSettings } from "./settings";

const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 250;
const CONNECTIONS = 50;
/** Orders booked ahead, as a multiple of the orders the payments' run could at most take at the booking rate. */
const SEED_MARGIN = 1.3;

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const luaHeaders = `{ ["Content-Type"] = "${FORM["Content-Type"]}", ["X-Forwarded-For"] = address }`;

/** Collects the order of every payment the site acknowledged: a redirect back to its page. */
const collectPaidOrder = `
function on_response(status, headers)
  if status ~= 302 then return end
  local id = (headers["location"] or headers["Location"] or ""):match("^/fast%-track%-payment/([0-9a-f%-]+)$")
  if id then collect(id) end
end
`;

/** wrk's script: the sandbox's payment form, posted for each queued order. */
function sandboxPaymentLua() {
  const body = new URLSearchParams(sandboxPaymentFields()).toString();
  return `
function request()
  local id, address = next_order()
  return wrk.format("POST", "/fast-track-payment/" .. id, ${luaHeaders}, ${JSON.stringify(body)})
end
${collectPaidOrder}`;
}

/** Stripe's first step: the payment page's script asks our site to open the order's PaymentIntent. */
const openLua = `
function request()
  local id, address = next_order()
  return wrk.format("POST", "/fast-track-payment/" .. id .. "/open", ${luaHeaders}, "consent=on")
end

function on_response(status, headers, body)
  if status ~= 200 then return end
  local secret = body:match('"clientSecret":"([^"]+)"')
  if secret then collect(secret) end
end
`;

/** Stripe's last step: once Stripe.js has confirmed the card, the page posts that it is done, and our site settles the order by what Stripe says. */
const settleLua = `
function request()
  local id, address = next_order()
  return wrk.format("POST", "/fast-track-payment/" .. id, ${luaHeaders}, "")
end
${collectPaidOrder}`;

const seedSeconds = (settings: BenchSettings) =>
  Math.ceil((settings.warmupSeconds + settings.loadSeconds) * SEED_MARGIN);

function processesOf(server: BenchServer): ProcessGroups {
  return () => ({
    server: server.pids(),
    ...(server.kind === "postgres" ? { postgres: postgresPids() } : {}),
  });
}

/** The baseline of every payment rate: bookings (POST /fast-track-form) on the same server, in rounds alternating with the payments. */
const bookingsOn = (server: BenchServer, processes: ProcessGroups) => ({
  url: server.origin,
  connections: CONNECTIONS,
  lua: bookingsOnlyLua(),
  processes,
});

const BOOKINGS = "bookings/s (POST /fast-track-form), same server";

/** Payments through the sandbox gateway: the card typed into our own form, one POST per payment. */
async function sandboxPayments(kind: DatabaseKind, settings: BenchSettings, smtp: SmtpSink, postgresAdminUrl?: string) {
  const server = await startServer({
    kind,
    port: settings.serverPort,
    postgresAdminUrl,
    workers: 1,
    smtpPort: smtp.port,
  });
  try {
    const queue = orderQueue(await bookOrders(server.origin, seedSeconds(settings), CONNECTIONS), 11);
    try {
      const processes = processesOf(server);
      const { subject: paid, baseline: booked } = await compareUnderLoad(
        { url: server.origin, connections: CONNECTIONS, lua: queue.lua + sandboxPaymentLua(), processes },
        bookingsOn(server, processes),
        loadRounds(settings),
      );
      await server.stop();
      const check = await checkPayments(server, paid.collected);
      const label = `sandbox gateway, ${kind}`;
      const sent = smtp.received;
      const ratio = paid.requestsPerSecond / booked.requestsPerSecond;
      const onPostgres = kind === "postgres";
      const errors = failedRequests(paid, "302");
      return [
        {
          figure: `Card payments/s, ${label}: one POST /fast-track-payment/:id with the card and consent (${CONNECTIONS} connections); ${generatorNote(paid, booked)}`,
          value: perSecond(paid.requestsPerSecond),
          baseline: `${perSecond(booked.requestsPerSecond)} ${BOOKINGS}`,
          ratio: ratio.toFixed(2),
          goal: onPostgres ? `≥ ${GOAL_RATIO}` : undefined,
          pass: onPostgres ? ratio >= GOAL_RATIO && !generatorBound(paid, booked) : null,
        },
        {
          figure: `Card payment latency p50 / p99 (${label})`,
          value: `${ms(paid.p50)} / ${ms(paid.p99)}`,
          baseline: `${ms(booked.p50)} / ${ms(booked.p99)} bookings`,
          goal: onPostgres ? `p99 < ${GOAL_P99_MS} ms` : undefined,
          pass: onPostgres ? paid.p99 < GOAL_P99_MS : null,
        },
        {
          figure: `CPU time per request, card payment and booking, the outbox worker's composing included (${label})`,
          value: cpuPerRequest(paid),
          baseline: `${cpuPerRequest(booked)} booking`,
          pass: null,
        },
        checkRow(label, errors, check, queue.exhausted(), sent),
      ] satisfies ResultRow[];
    } finally {
      queue.dispose();
    }
  } finally {
    await server.dispose();
  }
}

/**
 * Payments through Stripe, as the payment page makes them: our site opens the PaymentIntent (POST
 * /open with the consent; the site creates the customer and the intent at Stripe), Stripe.js
 * confirms the card at Stripe, then the page posts that it is done and our site settles the order
 * by what Stripe says (reads the intent, records the payment, queues the mail, subscribes the
 * membership's trial). The two requests to our site are measured in phases of their own, and the
 * confirmations at Stripe, which never reach our site, run between them. Webhooks are not sent
 * here: bench/webhooks.ts measures them.
 */
async function stripePayments(kind: DatabaseKind, settings: BenchSettings, smtp: SmtpSink, postgresAdminUrl?: string) {
  const sentBefore = smtp.received;
  const site = await startStripeSite({
    kind,
    port: settings.serverPort,
    stripePort: settings.stripePort,
    postgresAdminUrl,
    smtpPort: smtp.port,
  });
  const { server, fake } = site;
  const queues: { dispose(): void }[] = [];
  try {
    const processes: ProcessGroups = () => ({
      ...processesOf(server)(),
      "fake Stripe (the bench's process)": [process.pid],
    });
    const bookings = bookingsOn(server, processes);
    const toOpen = orderQueue(await bookOrders(server.origin, seedSeconds(settings), CONNECTIONS), 12);
    queues.push(toOpen);
    const opening = await compareUnderLoad(
      { url: server.origin, connections: CONNECTIONS, lua: toOpen.lua + openLua, processes },
      bookings,
      loadRounds(settings),
    );
    const confirmed = await confirmAtStripe(fake, opening.subject.collected);
    const toSettle = orderQueue(
      confirmed.map(({ orderId }) => orderId),
      12,
    );
    queues.push(toSettle);
    const settling = await compareUnderLoad(
      { url: server.origin, connections: CONNECTIONS, lua: toSettle.lua + settleLua, processes },
      bookings,
      loadRounds(settings),
    );
    await server.stop();
    const check = await checkPayments(server, settling.subject.collected);

    const open = opening.subject;
    const settle = settling.subject;
    const label = `Stripe path against the fake Stripe, ${kind}`;
    // One payment is one of each step: their times per payment add up.
    const paymentsPerSecond = 1 / (1 / open.requestsPerSecond + 1 / settle.requestsPerSecond);
    const ratio =
      1 /
      (opening.baseline.requestsPerSecond / open.requestsPerSecond +
        settling.baseline.requestsPerSecond / settle.requestsPerSecond);
    const bookingRate = (opening.baseline.requestsPerSecond + settling.baseline.requestsPerSecond) / 2;
    const onPostgres = kind === "postgres";
    const errors = failedRequests(open, "200") + failedRequests(settle, "302");
    const figures = [open, settle, opening.baseline, settling.baseline];
    return [
      {
        figure:
          `Card payments/s, ${label}: one payment is POST /fast-track-payment/:id/open (${perSecond(open.requestsPerSecond)}, ` +
          `${opening.subject.requests} measured) then, after the card was confirmed at Stripe, POST /fast-track-payment/:id ` +
          `(${perSecond(settle.requestsPerSecond)}); the ratio adds each step's time against bookings in its own rounds ` +
          `(${CONNECTIONS} connections); ${generatorNote(...figures)}`,
        value: perSecond(paymentsPerSecond),
        baseline: `${perSecond(bookingRate)} ${BOOKINGS}`,
        ratio: ratio.toFixed(2),
        goal: onPostgres ? `≥ ${GOAL_RATIO}` : undefined,
        pass: onPostgres ? ratio >= GOAL_RATIO && !generatorBound(...figures) : null,
      },
      {
        figure: `Card payment latency p50 / p99, opening and settling (${label})`,
        value: `open ${ms(open.p50)} / ${ms(open.p99)}; settle ${ms(settle.p50)} / ${ms(settle.p99)}`,
        baseline: `${ms(settling.baseline.p50)} / ${ms(settling.baseline.p99)} bookings (settling's rounds)`,
        goal: onPostgres ? `p99 < ${GOAL_P99_MS} ms each` : undefined,
        pass: onPostgres ? open.p99 < GOAL_P99_MS && settle.p99 < GOAL_P99_MS : null,
      },
      {
        figure: `CPU time per request, opening and settling a Stripe payment, the outbox worker's composing included (${label})`,
        value: `open: ${cpuPerRequest(open)}; settle: ${cpuPerRequest(settle)}`,
        baseline: `${cpuPerRequest(settling.baseline)} booking (settling's rounds)`,
        pass: null,
      },
      checkRow(label, errors, check, toOpen.exhausted() || toSettle.exhausted(), smtp.received - sentBefore),
    ] satisfies ResultRow[];
  } finally {
    for (const queue of queues) queue.dispose();
    await site.dispose();
  }
}

function checkRow(
  label: string,
  errors: number,
  check: Awaited<ReturnType<typeof checkPayments>>,
  ranOut: boolean,
  mailsSent: number,
): ResultRow {
  return {
    figure: `Payment errors; acknowledged payments with exactly one payment row, the order paid, and its confirmation mail queued once; mails the server sent to the loopback SMTP server by its stop (${label})`,
    value:
      `${errors} errors; ${check.exactlyOnce} of ${check.acknowledged} exactly once; ${check.doubled} orders paid or mailed twice; ${mailsSent} mails sent` +
      (ranOut ? "; the run ran out of booked orders (raise SEED_MARGIN)" : ""),
    goal: "0 errors; exactly once each",
    pass:
      errors === 0 &&
      !ranOut &&
      check.acknowledged > 0 &&
      check.exactlyOnce === check.acknowledged &&
      check.doubled === 0,
  };
}

/**
 * Card payments at 50 connections, as a share of the same server's bookings in the same run:
 * the sandbox gateway, then the Stripe path against the fake Stripe. Each payment pays an order
 * of its own, booked through the site beforehand; afterwards every acknowledged payment must have
 * one payment row, a paid order and one confirmation mail. The server sends its mails (the
 * confirmation, the trial's) to an SMTP server on loopback, so that its outbox worker's CPU is
 * what production's costs: composing, storing and sending each mail.
 */
export async function paymentsUnderLoad(settings: BenchSettings): Promise<ResultRow[]> {
  const postgresAdminUrl = (await postgresForBench()) ?? undefined;
  const kind: DatabaseKind = postgresAdminUrl ? "postgres" : "pglite";
  const smtp = await startSmtpSink({ keep: false });
  try {
    return [
      ...(await sandboxPayments(kind, settings, smtp, postgresAdminUrl)),
      ...(await stripePayments(kind, settings, smtp, postgresAdminUrl)),
    ];
  } finally {
    await smtp.close();
  }
}
