import { request } from "node:http";
import { compareUnderLoad, generatorBound, generatorNote } from "./lib/load";
import { perSecond, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import { startStaticBaseline } from "./lib/static-baseline";
import { loadRounds, type BenchSettings } from "./settings";

export const LOADED_PUBLIC_PAGES = ["/", "/services", "/fast-track", "/faq"] as const;
const GOAL_RATIO = 0.8;
const CONNECTIONS = 50;
/** What a browser asks for, and what a client that asks for nothing gets. */
const ENCODINGS = [{ "Accept-Encoding": "gzip, br" }, {}] as const;

interface PageBytes {
  body: Buffer;
  /** The response's headers as a flat name/value list, in the order and case they came in. */
  headers: string[];
  encoding: string | undefined;
}

/** What node:http adds to every response itself. */
const NODE_OWN_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * The page's bytes as sent (compressed if the server chose so), with every header it was sent with
 * but those node:http writes itself: the baseline sends the same, its request id included (one
 * fixed id, where the site draws one per request).
 */
export function fetchRaw(url: string, headers: Record<string, string>): Promise<PageBytes> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const sent: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i]!;
          if (!NODE_OWN_HEADERS.has(name.toLowerCase())) sent.push(name, response.rawHeaders[i + 1]!);
        }
        const encoding = response.headers["content-encoding"];
        resolve({ body: Buffer.concat(chunks), headers: sent, encoding });
      });
    })
      .on("error", reject)
      .end();
  });
}

/**
 * Anonymous GETs of each page at 50 connections, with and without compression, as a share of what a
 * bare `node:http` server sending the same bytes with the same headers from memory manages in the
 * same run.
 */
export async function publicPagesUnderLoad(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const path of LOADED_PUBLIC_PAGES) {
    for (const headers of ENCODINGS) {
      const page = await fetchRaw(`${server.origin}${path}`, headers);
      const baselineServer = await startStaticBaseline(settings.baselinePort, page.body, page.headers);
      const { subject, baseline } = await compareUnderLoad(
        { url: `${server.origin}${path}`, connections: CONNECTIONS, headers },
        { url: baselineServer.origin, connections: CONNECTIONS, headers },
        loadRounds(settings),
      ).finally(() => baselineServer.stop());
      const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
      const encoding = page.encoding ?? "uncompressed";
      rows.push({
        figure: `GET ${path} (${server.kind}, ${CONNECTIONS} connections, ${encoding}, ${(page.body.length / 1024).toFixed(0)} KiB); p50 ${subject.p50.toFixed(1)} ms, p99 ${subject.p99.toFixed(1)} ms; ${generatorNote(subject, baseline)}`,
        value: perSecond(subject.requestsPerSecond),
        baseline: `${perSecond(baseline.requestsPerSecond)} node:http, same bytes and headers`,
        ratio: ratio.toFixed(3),
        goal: `≥ ${GOAL_RATIO}, no errors`,
        pass: ratio >= GOAL_RATIO && subject.errors === 0 && !generatorBound(subject, baseline),
      });
    }
  }
  return rows;
}
