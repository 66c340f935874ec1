import { bookingLua } from "./lib/booking-load";
import { generatorNote, measureLoad } from "./lib/load";
import type { ResultRow } from "./lib/results";
import type { BenchServer } from "./lib/server";
import { LOADED_PUBLIC_PAGES } from "./public-pages";
import type { BenchSettings } from "./settings";

const GOAL_MAX_MIB = 300;
/** Growth after warm-up that still counts as flat: allocator and JIT noise, not a leak. */
const FLAT_TOLERANCE = 0.1;
const WARMUP_SHARE = 0.2;
const SAMPLE_EVERY_MS = 5_000;
const SETTLE_MS = 10_000;

const mib = (bytes: number) => bytes / 2 ** 20;

/** Server RSS before, during and after a mixed load of page views, bookings and health checks. */
export async function memoryUnderLoad(server: BenchServer, settings: BenchSettings): Promise<ResultRow[]> {
  const before = server.rss();
  const samples: { at: number; rss: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => samples.push({ at: Date.now() - started, rss: server.rss() }), SAMPLE_EVERY_MS);
  // Each public page, a booking, then a health check, in turn.
  const mixed = `${bookingLua()}
local pages = { ${[...LOADED_PUBLIC_PAGES, "/healthz"].map((path) => JSON.stringify(path)).join(", ")} }
local turn = 0
function request()
  turn = turn + 1
  local slot = turn % (#pages + 1)
  if slot == 0 then return booking_request() end
  return wrk.format("GET", pages[slot])
end
`;
  const load = await measureLoad({
    url: server.origin,
    connections: 20,
    seconds: settings.memorySeconds,
    warmupSeconds: 0,
    lua: mixed,
  }).finally(() => clearInterval(sampler));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const after = server.rss();

  const warmupEnd = settings.memorySeconds * 1000 * WARMUP_SHARE;
  const warm = samples.filter((sample) => sample.at >= warmupEnd);
  const atWarm = warm[0]?.rss ?? before;
  const peak = Math.max(...samples.map((sample) => sample.rss), before, after);
  const last = samples.at(-1)?.rss ?? after;
  const growth = (last - atWarm) / atWarm;
  return [
    {
      figure: `Server RSS before / at end of warm-up / end of load / 10 s after, ${settings.memorySeconds} s mixed load (${server.kind}, 20 connections, ${load.requestsPerSecond.toFixed(0)} req/s); ${generatorNote(load)}`,
      value: `${mib(before).toFixed(0)} / ${mib(atWarm).toFixed(0)} / ${mib(last).toFixed(0)} / ${mib(after).toFixed(0)} MiB`,
      goal: `growth after warm-up ≤ ${FLAT_TOLERANCE * 100} %`,
      ratio: `${(growth * 100).toFixed(1)} %`,
      pass: growth <= FLAT_TOLERANCE,
    },
    {
      figure: `Server peak RSS under mixed load (${server.kind})`,
      value: `${mib(peak).toFixed(0)} MiB`,
      goal: `< ${GOAL_MAX_MIB} MiB`,
      pass: mib(peak) < GOAL_MAX_MIB,
    },
  ];
}
