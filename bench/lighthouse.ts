import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { PUBLIC_PAGE_PATHS } from "~/platform/seo/sitemap";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { ms, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import { startStaticBaseline } from "./lib/static-baseline";
import type { BenchSettings } from "./settings";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const GOALS = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 } as const;
const GOAL_TBT_MS = 50;

/** The least a page can be: what any page costs this host's Chromium to load, audited beside each real one. */
const FLOOR_PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title>' +
    '<meta name="description" content="The smallest complete page, to measure the host by."></head>' +
    "<body><main><h1>Floor</h1><p>A page with nothing to lay out.</p></main></body></html>",
);

interface Audit {
  scores: Record<(typeof CATEGORIES)[number], number>;
  cls: number;
  tbt: number;
  /** Lighthouse's measure of the host CPU's speed at this run (it warns below 1,000). */
  benchmarkIndex: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function audit(url: string, port: number): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, environment } = result.lhr;
  const score = (category: string) => Math.round((categories[category]?.score ?? 0) * 100);
  return {
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, score(category)])) as Audit["scores"],
    cls: audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    tbt: audits["total-blocking-time"]?.numericValue ?? Number.NaN,
    benchmarkIndex: environment.benchmarkIndex,
  };
}

/**
 * Lighthouse's default (mobile) preset on every public page in Debian's Chromium, medians of the
 * runs, each run alternating with one on the floor page. Chromium is started as Lighthouse starts
 * it (chrome-launcher), with no other client attached: Playwright's launch flags and its own
 * session in every page made the same page cost more main-thread time, and TBT more than double.
 */
export async function lighthouseScores(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  const floor = await startStaticBaseline(settings.baselinePort, FLOOR_PAGE, [
    "Content-Type",
    "text/html; charset=utf-8",
  ]);
  const chromium = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
    logLevel: "silent",
  });
  const rows: ResultRow[] = [];
  try {
    for (const path of PUBLIC_PAGE_PATHS) {
      const runs: Audit[] = [];
      const floorRuns: Audit[] = [];
      for (let run = 0; run < settings.lighthouseRuns; run++) {
        runs.push(await audit(`${server.origin}${path}`, chromium.port));
        floorRuns.push(await audit(`${floor.origin}/`, chromium.port));
      }
      const scores = CATEGORIES.map((category) => median(runs.map((run) => run.scores[category])));
      const cls = median(runs.map((run) => run.cls));
      const tbt = median(runs.map((run) => run.tbt));
      // TBT is the host's main-thread time times four: a slower host gives more for the same page.
      const benchmarkIndex = median(runs.map((run) => run.benchmarkIndex));
      const pass =
        CATEGORIES.every((category, index) => scores[index]! >= GOALS[category]) && cls === 0 && tbt < GOAL_TBT_MS;
      rows.push({
        figure: `Lighthouse mobile ${path}: performance / accessibility / best practices / SEO; CLS; TBT; host benchmark index (median of ${settings.lighthouseRuns})`,
        value: `${scores.join(" / ")}; CLS ${cls === 0 ? 0 : cls.toPrecision(2)}; TBT ${ms(tbt)}; ${Math.round(benchmarkIndex)}`,
        baseline: `TBT ${ms(median(floorRuns.map((run) => run.tbt)))} on a ${FLOOR_PAGE.length}-byte page from node:http`,
        goal: `≥ 98 / 100 / 100 / 100; CLS 0; TBT < ${GOAL_TBT_MS} ms`,
        pass,
      });
    }
  } finally {
    chromium.kill();
    await floor.stop();
  }
  return rows;
}
