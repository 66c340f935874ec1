// The server bench/cache-hit-pieces.ts loads: one process whose paths each answer a cached page with
// more of a hit's pieces than the last (HIT_STEPS), so that every step runs on the same heap.
// Steps 3 and 4 are the hit as it was; step 5 is the hit as now answered: the peer's trust
// remembered, no AsyncLocalStorage, the cached histogram series (`timer.hit`) for the 'finish' timer.
// GET /pieces times each piece alone, without HTTP.
import { createServer, get, IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import express from "express";
import { requestTimer } from "~/platform/observability/http-metrics.server";
import { REQUEST_ID_HEADER, requestIdFor, withRequestId } from "~/platform/observability/request-id.server";
import { HIT_STEPS } from "./cache-hit-steps";
import { createPageCache } from "../../server/page-cache";
import { securityHeaderValues } from "../../server/security-headers";

// A page of about the home page's size (45 KiB, 5-6 KiB in brotli) and shape: markup, words that
// compress like its text, an inline script to hash.
let seed = 1;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
const words = Array.from({ length: 400 }, (_, index) =>
  ((index * 2654435761) % 4294967296).toString(36).slice(0, 3 + (index % 6)),
);
const sentence = () => Array.from({ length: 12 }, () => words[next() % words.length]).join(" ");
const html = `<!DOCTYPE html><html lang="en"><head><script>window.__ctx={}</script></head><body>${Array.from(
  { length: 560 },
  (_, index) => `<p class="text-sm">${index % 4 ? sentence() : "Fast-track membership"}</p>`,
).join("")}</body></html>`;

const cache = createPageCache({
  paths: HIT_STEPS,
  render: async () => new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
  securityHeaders: (hashes) => securityHeaderValues(hashes, { production: true, reportOnly: false }),
});
const app = express();
app.set("trust proxy", "loopback");
const trusts = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
app.use(cache.middleware);
const timer = requestTimer((path) => path);
const remembered = new Map<string, boolean>();
const rememberedTrust = (peer: string) => {
  let trusted = remembered.get(peer);
  if (trusted === undefined) remembered.set(peer, (trusted = trusts(peer, 0)));
  return trusted;
};
const FIXED_ID = "00000000-0000-4000-8000-000000000000";
let bare: { headers: string[]; body: Buffer } | undefined;

/** Nanoseconds per call of `work`, over enough calls to take about 0.2 s. */
function nanosPerCall(work: () => unknown): number {
  for (let call = 0; call < 10_000; call++) work();
  let calls = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 200_000_000n) {
    for (let call = 0; call < 10_000; call++) work();
    calls += 10_000;
    elapsed = process.hrtime.bigint() - started;
  }
  return Number(elapsed) / calls;
}

/** Each piece of a hit alone, without HTTP, on a request and response of its own per call. */
function pieceNanos(): Record<string, number> {
  const request = () => {
    const req = new IncomingMessage(new Socket());
    req.method = "GET";
    req.url = "/serve";
    return req;
  };
  const req = request();
  const response = () => new ServerResponse(req);
  const bareResponse = nanosPerCall(response);
  return {
    trust: nanosPerCall(() => trusts("127.0.0.1", 0)),
    rememberedTrust: nanosPerCall(() => rememberedTrust("127.0.0.1")),
    randomUUID: nanosPerCall(() => requestIdFor(undefined, false)),
    asyncLocalStorage: nanosPerCall(() => withRequestId(FIXED_ID, () => 0)),
    finishTimer:
      nanosPerCall(() => {
        const res = response();
        timer.time(req, res);
        timer.routed(req);
        res.emit("finish");
      }) - bareResponse,
    hitSeries:
      nanosPerCall(() => {
        const res = response();
        timer.hit(req, res, performance.now());
      }) - bareResponse,
  };
}

createServer((req, res) => {
  if (req.url === "/pieces") {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(pieceNanos()));
    return;
  }
  const arrived = performance.now();
  const step = HIT_STEPS.indexOf(req.url ?? "");
  if (step === 0 && bare) {
    res.writeHead(200, bare.headers);
    res.end(bare.body);
    return;
  }
  const peer = req.socket.remoteAddress;
  // The hit as now answered asks Express about a peer once (server/app.ts's trustedPeers).
  const trusted = () => peer !== undefined && (step === 5 ? rememberedTrust(peer) : trusts(peer, 0));
  const id = step >= 2 ? requestIdFor(req.headers["x-request-id"], trusted()) : FIXED_ID;
  const serve = () => {
    if (step === 4) timer.time(req, res);
    const served = cache.serve(req, res, [REQUEST_ID_HEADER, id]);
    if (served && step === 4) timer.routed(req);
    if (served && step === 5) timer.hit(req, res, arrived);
    return served;
  };
  if ((step >= 3 && step <= 4 ? withRequestId(id, serve) : serve()) || !req.url) return;
  app(req, res);
}).listen(Number(process.env.HIT_PORT), "127.0.0.1", () => {
  // node:http's step sends what a hit of /serve sends (Date and Connection aside), from the same process.
  get(`http://127.0.0.1:${process.env.HIT_PORT}/serve`, { headers: { "Accept-Encoding": "gzip, br" } }, (response) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => {
      const headers = Object.entries(response.headers).flatMap(([name, value]) =>
        typeof value !== "string" || ["x-page-cache", "date", "connection", "keep-alive"].includes(name)
          ? []
          : [name, value],
      );
      bare = { headers: [...headers, REQUEST_ID_HEADER, FIXED_ID], body: Buffer.concat(chunks) };
      process.stdout.write("ready\n");
    });
  }).on("error", (error) => {
    console.error(error);
    process.exit(1);
  });
});
