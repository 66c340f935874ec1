import { randomInt } from "node:crypto";
import { bookOrders } from "./lib/booking-load";
import { checkPayments } from "./lib/payment-checks";
import { processCpuMs } from "./lib/process-cpu";
import { ms, perSecond, type ResultRow } from "./lib/results";
import { postgresForBench, type DatabaseKind } from "./lib/server";
import { confirmAtStripe, forEachAtMost, startStripeSite } from "./lib/stripe-site";
import type { BenchSettings } from "./settings";

const DISTINCT_EVENTS = 500;
/** Each event is sent this many times, as Stripe does when an answer is lost. */
const DELIVERIES_PER_EVENT = 2;
const CONCURRENCY = 50;

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

/**
 * 1,000 signed Stripe events posted to /stripe/webhook, 50 at a time: payment_intent.succeeded for
 * 500 orders whose payments were opened through the site and confirmed at the fake Stripe, each
 * event sent twice, shuffled. Afterwards each order must be paid once (one payment row, one
 * confirmation mail) and each event recorded once. The client is Node's fetch in this process,
 * not wrk: wrk runs for a time, and this load is a fixed set of requests.
 */
export async function webhooksUnderLoad(settings: BenchSettings): Promise<ResultRow[]> {
  const postgresAdminUrl = (await postgresForBench()) ?? undefined;
  const kind: DatabaseKind = postgresAdminUrl ? "postgres" : "pglite";
  const site = await startStripeSite({
    kind,
    port: settings.serverPort,
    stripePort: settings.stripePort,
    postgresAdminUrl,
  });
  const { server, fake } = site;
  try {
    const orderIds: string[] = [];
    while (orderIds.length < DISTINCT_EVENTS) orderIds.push(...(await bookOrders(server.origin, 2, 20)));
    const clientSecrets: string[] = [];
    const toOpen = orderIds.slice(0, DISTINCT_EVENTS).map((orderId, index) => ({ orderId, index }));
    await forEachAtMost(toOpen, 10, async ({ orderId, index }) => {
      // The payment page's script, from each traveller's own address.
      const answer = await fetch(`${server.origin}/fast-track-payment/${orderId}/open`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": `13.0.${index >> 8}.${index & 255}`,
        },
        body: "consent=on",
      });
      const { clientSecret } = (await answer.json()) as { clientSecret?: string };
      if (!clientSecret) throw new Error(`the site did not open order ${orderId}'s payment (${answer.status})`);
      clientSecrets.push(clientSecret);
    });
    const succeeded = await confirmAtStripe(fake, clientSecrets);
    const deliveries = shuffled(
      succeeded.flatMap(({ event }) => Array.from({ length: DELIVERIES_PER_EVENT }, () => event)),
    );

    const latencies: number[] = [];
    const statuses = new Map<number | "error", number>();
    const cpuBefore = processCpuMs(process.pid);
    const start = performance.now();
    await forEachAtMost(deliveries, CONCURRENCY, async (event) => {
      const { payload, signature } = fake.signedDelivery(event);
      const sent = performance.now();
      let status: number | "error";
      try {
        const answer = await fetch(`${server.origin}/stripe/webhook`, {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signature },
          body: payload,
        });
        await answer.arrayBuffer();
        status = answer.status;
      } catch {
        status = "error";
      }
      latencies.push(performance.now() - sent);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    const wallMs = performance.now() - start;
    const clientShare = (processCpuMs(process.pid) - cpuBefore) / wallMs;
    await server.stop();
    const check = await checkPayments(
      server,
      succeeded.map(({ orderId }) => orderId),
      succeeded.map(({ event }) => event.id),
    );

    const sorted = latencies.sort((a, b) => a - b);
    const errors = deliveries.length - (statuses.get(200) ?? 0);
    const label = `${deliveries.length} payment_intent.succeeded deliveries of ${succeeded.length} events, shuffled, ${CONCURRENCY} at a time (${kind})`;
    return [
      {
        figure:
          `Stripe webhook events/s, POST /stripe/webhook: ${label}; the client and the fake Stripe, ` +
          `one Node process, used ${(clientShare * 100).toFixed(0)} % of a core`,
        value: perSecond(deliveries.length / (wallMs / 1000)),
        pass: null,
      },
      {
        figure: `Stripe webhook latency p50 / p99 (${kind})`,
        value: `${ms(percentile(sorted, 0.5))} / ${ms(percentile(sorted, 0.99))}`,
        pass: null,
      },
      {
        figure: `Webhook errors; orders paid exactly once (one payment row, one confirmation mail); events recorded once (${label})`,
        value:
          `${errors} errors (${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")}); ` +
          `${check.exactlyOnce} of ${check.acknowledged} orders exactly once, ${check.doubled} twice; ` +
          `${check.eventsRecorded} of ${succeeded.length} events recorded`,
        goal: "0 errors; each effect exactly once",
        pass:
          errors === 0 &&
          check.acknowledged === DISTINCT_EVENTS &&
          check.exactlyOnce === DISTINCT_EVENTS &&
          check.doubled === 0 &&
          check.eventsRecorded === DISTINCT_EVENTS,
      },
    ];
  } finally {
    await site.dispose();
  }
}
