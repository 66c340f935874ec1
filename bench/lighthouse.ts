import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { PUBLIC_PAGE_PATHS } from "~/features/seo/sitemap";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/chromium";
import { ms, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import type { BenchSettings } from "./settings";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const GOALS = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 } as const;
const GOAL_TBT_MS = 50;
const DEBUGGING_PORT = 9333;

interface Audit {
  scores: Record<(typeof CATEGORIES)[number], number>;
  cls: number;
  tbt: number;
  /** Lighthouse's measure of the host CPU's speed at this run (it warns below 1,000). */
  benchmarkIndex: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function audit(url: string): Promise<Audit> {
  const result = await lighthouse(url, {
    port: DEBUGGING_PORT,
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

/** Lighthouse's default (mobile) preset on every public page in Debian's Chromium; medians of the runs. */
export async function lighthouseScores(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUGGING_PORT}`],
  });
  const rows: ResultRow[] = [];
  try {
    for (const path of PUBLIC_PAGE_PATHS) {
      const runs: Audit[] = [];
      for (let run = 0; run < settings.lighthouseRuns; run++) runs.push(await audit(`${server.origin}${path}`));
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
        goal: `≥ 98 / 100 / 100 / 100; CLS 0; TBT < ${GOAL_TBT_MS} ms`,
        pass,
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}
