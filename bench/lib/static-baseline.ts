import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pinned } from "./pinning";

/**
 * The baseline a page is compared with: a bare `node:http` server, in a process of its own like the
 * real one, answering every request with the same status, bytes and headers (a flat name/value
 * list, in its order) from memory; the body's length is added when the list does not give it.
 */
const SERVER_SOURCE = `
const http = require("node:http");
const body = require("node:fs").readFileSync(process.env.BASELINE_BODY_FILE);
const given = JSON.parse(process.env.BASELINE_HEADERS);
const sized = given.some((item, index) => index % 2 === 0 && item.toLowerCase() === "content-length");
const headers = sized ? given : [...given, "Content-Length", String(body.length)];
http.createServer((request, response) => {
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(process.env.BASELINE_PORT), "127.0.0.1", () => process.stdout.write("ready\\n"));
`;

export interface StaticBaseline {
  origin: string;
  stop(): Promise<void>;
}

export async function startStaticBaseline(
  port: number,
  body: Buffer,
  headers: readonly string[],
): Promise<StaticBaseline> {
  const folder = mkdtempSync(join(tmpdir(), "bench-baseline-"));
  const bodyFile = join(folder, "body");
  writeFileSync(bodyFile, body);
  // On the server's cores, when they are pinned: the two are compared process for process.
  const child = spawn(...pinned("BENCH_SERVER_CPUS", process.execPath, ["-e", SERVER_SOURCE]), {
    env: {
      ...process.env,
      BASELINE_BODY_FILE: bodyFile,
      BASELINE_HEADERS: JSON.stringify(headers),
      BASELINE_PORT: String(port),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  exited.then(() => rmSync(folder, { recursive: true, force: true }));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the baseline server exited with code ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
