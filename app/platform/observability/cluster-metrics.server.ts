import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";

// With WEB_CONCURRENCY > 1 a scrape reaches one worker, but it must answer for all of them (ADR 024).
// That worker asks the primary, which gathers every worker's metrics (prom-client's
// AggregatorRegistry, over the cluster's IPC channels), adds them up and sends the text back.

const ASK = "metrics:ask";
const ANSWER = "metrics:answer";

interface Ask {
  type: typeof ASK;
  id: number;
}

interface Answer {
  type: typeof ANSWER;
  id: number;
  metrics?: string;
  error?: string;
}

function isMessage<T extends Ask | Answer>(message: unknown, type: T["type"]): message is T {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary: answers each worker's ask with the metrics of every worker, aggregated. */
export function answerMetricsAsks() {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isMessage<Ask>(message, ASK)) return;
    const answer = (fields: Omit<Answer, "type" | "id">) => {
      // A worker that died meanwhile has no one left to read the answer.
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields } satisfies Answer);
    };
    aggregator.clusterMetrics().then(
      (metrics) => answer({ metrics }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

interface Asker {
  resolve(metrics: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const waiting = new Map<number, Asker>();
let lastAsk = 0;
let listening = false;

function receiveAnswer(message: unknown) {
  if (!isMessage<Answer>(message, ANSWER)) return;
  const asker = waiting.get(message.id);
  if (!asker) return; // it gave up waiting
  waiting.delete(message.id);
  clearTimeout(asker.timer);
  if (message.metrics !== undefined) asker.resolve(message.metrics);
  else asker.reject(new Error(`the primary could not gather the workers' metrics: ${message.error}`));
}

/** In a worker: the metrics of every worker of the cluster, aggregated by the primary. */
export function clusterMetrics(timeoutMs: number): Promise<string> {
  if (!listening) {
    process.on("message", receiveAnswer);
    listening = true;
  }
  const id = ++lastAsk;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`the primary did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.set(id, { resolve, reject, timer });
    process.send!({ type: ASK, id } satisfies Ask);
  });
}
