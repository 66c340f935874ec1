import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { PUBLIC_PAGE_PATHS } from "~/platform/seo/sitemap";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { kib, type ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";

const GOAL_JS_BYTES = 120 * 1024;
const TEXT_PAGES = new Set(["/terms", "/subscription-terms", "/privacy", "/faq"]);

interface PageWeight {
  path: string;
  javascript: number;
  css: number;
  files: number;
}

/** Loads `path` in Chromium and sums the gzip size of every script and stylesheet it fetched. */
async function weighPage(browser: Browser, origin: string, path: string) {
  const page = await browser.newPage();
  const bodies: Promise<{ type: string; size: number }>[] = [];
  page.on("response", (response) => {
    const type = response.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    bodies.push(response.body().then((body) => ({ type, size: gzipSync(body).length })));
  });
  await page.goto(`${origin}${path}`, { waitUntil: "networkidle" });
  await page.close();
  const files = await Promise.all(bodies);
  const total = (type: string) => files.filter((file) => file.type === type).reduce((sum, file) => sum + file.size, 0);
  return { path, javascript: total("script"), css: total("stylesheet"), files: files.length } satisfies PageWeight;
}

/**
 * The gzip JavaScript and CSS each public page loads in Chromium (a count, so independent of load).
 * Goal: at most 120 KiB of JavaScript everywhere, and less on the legal and FAQ pages than on the home page.
 */
export async function pageWeights(server: BenchServer): Promise<ResultRow[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const weights: PageWeight[] = [];
  try {
    for (const path of PUBLIC_PAGE_PATHS) weights.push(await weighPage(browser, server.origin, path));
  } finally {
    await browser.close();
  }
  const home = weights.find((weight) => weight.path === "/")!;
  return weights.map((weight) => {
    const textPage = TEXT_PAGES.has(weight.path);
    const withinGoal = weight.javascript <= GOAL_JS_BYTES && (!textPage || weight.javascript < home.javascript);
    return {
      figure: `Page weight ${weight.path}: gzip JavaScript (CSS ${kib(weight.css)}; ${weight.files} files)`,
      value: kib(weight.javascript),
      goal: textPage ? `≤ 120 KiB and < home (${kib(home.javascript)})` : "≤ 120 KiB",
      pass: withinGoal,
    };
  });
}
