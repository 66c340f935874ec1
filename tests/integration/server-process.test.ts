import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyPostgresDatabase, testDatabaseKind } from "./test-database";

// Boots the production build (`npm run build` comes first in `npm test`) as a real process.
const kind = testDatabaseKind();
const port = 3200 + Math.floor(Math.random() * 500) + (kind === "postgres" ? 500 : 0);
const baseUrl = `http://127.0.0.1:${port}`;

let server: ChildProcess;
let output = "";
let dataDir: string;
let dropDatabase = async () => {};

async function waitForHealthy() {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not become healthy:\n${output}`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "server-process-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
  };
  delete env.DATABASE_URL;
  if (kind === "postgres") {
    const database = await createEmptyPostgresDatabase();
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  server = spawn(process.execPath, ["server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  await waitForHealthy();
});

afterAll(async () => {
  if (server.exitCode === null) server.kill("SIGKILL");
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`the production server on ${kind}`, () => {
  it("logs a 404 visit with its path and referrer", async () => {
    const response = await fetch(`${baseUrl}/no/such/page?x=1`, { headers: { Referer: "https://search.example/q" } });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
    const line = output
      .split("\n")
      .filter((entry) => entry.startsWith("{"))
      .map((entry) => JSON.parse(entry) as { msg: string; path?: string; referrer?: string })
      .find((entry) => entry.msg.startsWith("404"));
    expect(line).toMatchObject({ path: "/no/such/page", referrer: "https://search.example/q" });
  });

  it("stops cleanly on SIGTERM, closing the database", async () => {
    server.kill("SIGTERM");
    const [code] = await once(server, "exit");
    expect(code).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    if (kind === "pglite") expect(existsSync(join(dataDir, "server.lock"))).toBe(false);
  });
});
