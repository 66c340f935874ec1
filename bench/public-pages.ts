import { compareUnderLoad, generatorNote } from "./lib/load";
import { perSecond, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import { startStaticBaseline } from "./lib/static-baseline";
import type { BenchSettings } from "./settings";

export const LOADED_PUBLIC_PAGES = ["/", "/services", "/fast-track", "/faq"] as const;
const GOAL_RATIO = 0.2;

/**
 * Anonymous GETs of each page at 50 connections, as a share of what a bare `node:http` server
 * sending the same bytes from memory manages in the same run.
 */
export async function publicPagesUnderLoad(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const path of LOADED_PUBLIC_PAGES) {
    const response = await fetch(`${server.origin}${path}`);
    const body = Buffer.from(await response.arrayBuffer());
    const baselineServer = await startStaticBaseline(
      settings.baselinePort,
      body,
      response.headers.get("content-type") ?? "text/html",
    );
    const { subject: page, baseline } = await compareUnderLoad(
      { url: `${server.origin}${path}`, connections: 50 },
      { url: baselineServer.origin, connections: 50 },
      { seconds: settings.loadSeconds, warmupSeconds: settings.warmupSeconds, rounds: settings.rounds },
    ).finally(() => baselineServer.stop());
    const ratio = page.requestsPerSecond / baseline.requestsPerSecond;
    const failures = page.errors + Object.entries(page.statusCounts).filter(([status]) => status !== "200").length;
    rows.push({
      figure: `GET ${path} (${server.kind}, 50 connections, ${(body.length / 1024).toFixed(0)} KiB); p50 ${page.p50} ms, p99 ${page.p99} ms; ${generatorNote(page)}`,
      value: perSecond(page.requestsPerSecond),
      baseline: `${perSecond(baseline.requestsPerSecond)} node:http, same bytes`,
      ratio: ratio.toFixed(3),
      goal: `≥ ${GOAL_RATIO}, no errors`,
      pass: ratio >= GOAL_RATIO && failures === 0,
    });
  }
  return rows;
}
