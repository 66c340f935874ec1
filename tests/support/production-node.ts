import { readFileSync } from "node:fs";

/**
 * The command line `npm run serve` (and so `npm start`) runs the production server with:
 * node's flags as package.json gives them, then server.js. The tests and the benchmarks spawn
 * the server with it, so they run what production runs.
 */
export function productionServerArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = /^node ((?:--\S+ )*)server\.js$/.exec(scripts.serve ?? "");
  if (!command) throw new Error('package.json\'s "serve" script should read "node [--flag ...] server.js"');
  return [...command[1]!.split(" ").filter(Boolean), "server.js"];
}
