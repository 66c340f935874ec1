import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { measureLoad } from "./lib/load";
import type { ResultRow } from "./lib/results";
import { HIT_STEPS } from "./lib/cache-hit-steps";
import type { BenchSettings } from "./settings";

const CONNECTIONS = 50;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
/** The pieces GET /pieces times alone. */
const ALONE: Record<string, string> = {
  trust: "Express's trust-proxy check of the peer",
  rememberedTrust: "the peer's trust, remembered",
  randomUUID: "randomUUID through requestIdFor",
  asyncLocalStorage: "AsyncLocalStorage.run",
  finishTimer: "startTimer, 'finish' listener and labels, routed's WeakMap",
  hitSeries: "timer.hit: the cached histogram series",
};
/** What each step (a path of bench/lib/cache-hit-server.ts) adds to the one before it. */
const PIECES: Record<string, string> = {
  "/serve": "the page cache's serve (key, encoding, writeHead with the stored headers)",
  "/request-id": "the request id (Express's trusted-proxy check, randomUUID)",
  "/async-context": "AsyncLocalStorage.run around the hit (withRequestId)",
  "/finish-timer": "the metrics timer (startTimer, 'finish' listener, labels on finish, routed's WeakMap)",
};

/**
 * What each piece of a page-cache hit costs beyond `node:http` sending the same bytes and headers:
 * one process whose paths add the pieces one at a time (bench/lib/cache-hit-server.ts), loaded in
 * turn, its CPU time per request compared; then each piece timed alone in that process. `/hit-series`
 * is the hit as the server now answers it: the peer's trust remembered, the request id, no
 * AsyncLocalStorage, a cached histogram series.
 */
export async function cacheHitPieces(settings: BenchSettings): Promise<ResultRow[]> {
  const port = settings.serverPort;
  const script = fileURLToPath(new URL("lib/cache-hit-server.ts", import.meta.url));
  // One process (tsx as a loader, not its CLI, which would run the script in a child of its own).
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, NODE_ENV: "production", HIT_PORT: String(port), TSX_TSCONFIG_PATH: "tsconfig.app.json" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the cache-hit server exited with code ${code}`)));
    });
    const pids = () => ({ server: [child.pid!] });
    const cpu = new Map<string, number[]>(HIT_STEPS.map((step) => [step, []]));
    let errors = 0;
    // Short loads, many rounds, the steps in turn: the median of each is the least disturbed by a
    // neighbour's load on a shared machine.
    for (let round = 0; round < settings.rounds * 2; round++) {
      for (const step of HIT_STEPS) {
        const load = await measureLoad({
          url: `http://127.0.0.1:${port}${step}`,
          connections: CONNECTIONS,
          seconds: Math.max(2, Math.round(settings.loadSeconds / 2)),
          warmupSeconds: 1,
          headers: { "Accept-Encoding": "gzip, br" },
          processes: pids,
        });
        cpu.get(step)!.push(load.cpuMsPerRequest.server! * 1000);
        errors += load.errors;
      }
    }
    const micros = (step: string) => median(cpu.get(step)!);
    const bare = micros("/node-http");
    const before = micros("/finish-timer");
    const after = micros("/hit-series");
    const rows: ResultRow[] = [];
    let previous = bare;
    for (const [step, piece] of Object.entries(PIECES)) {
      const added = micros(step) - previous;
      previous = micros(step);
      rows.push({
        figure: `cache hit over HTTP, adding ${piece}: server CPU µs per hit beyond the step before (median of ${settings.rounds * 2} rounds)`,
        value: `${added.toFixed(2)} µs`,
        baseline: `${before.toFixed(1)} µs a hit before, ${bare.toFixed(1)} µs node:http in the same process`,
        ratio: `${(added / before).toFixed(3)} of a hit`,
        pass: null,
      });
    }
    const alone = (await (await fetch(`http://127.0.0.1:${port}/pieces`)).json()) as Record<string, number>;
    for (const [piece, nanos] of Object.entries(alone)) {
      rows.push({
        figure: `cache hit piece alone, without HTTP (${ALONE[piece] ?? piece}): ns per call`,
        value: `${nanos.toFixed(0)} ns`,
        baseline: `${before.toFixed(1)} µs a hit before (over HTTP, same run)`,
        ratio: `${(nanos / 1000 / before).toFixed(3)} of a hit`,
        pass: null,
      });
    }
    rows.push({
      figure: `cache hit as now answered (peer's trust remembered, request id, no AsyncLocalStorage, cached histogram series): server CPU µs per hit; ${errors} errors in all steps`,
      value: `${after.toFixed(1)} µs`,
      baseline: `${before.toFixed(1)} µs before, ${bare.toFixed(1)} µs node:http, same run`,
      ratio: `${(after / before).toFixed(3)} of before; node:http ${(bare / after).toFixed(3)} of it`,
      pass: null,
    });
    return rows;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}
