import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmptyPostgresDatabase, type TestDatabaseKind } from "./test-database";

export interface ProductionServer {
  baseUrl: string;
  process: ChildProcess;
  dataDir: string;
  /** The server's own PostgreSQL database, when it runs on PostgreSQL. */
  databaseUrl?: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the process if it still runs and throws its data away. */
  dispose(): Promise<void>;
}

/**
 * Boots the production build (`npm run build` comes first in `npm test`) as a real process on
 * its own embedded data folder, or on a fresh PostgreSQL database, and waits until it is healthy.
 */
export async function startProductionServer(
  kind: TestDatabaseKind,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ProductionServer> {
  const port = 3200 + Math.floor(Math.random() * 500) + (kind === "postgres" ? 500 : 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "server-process-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  let dropDatabase = async () => {};
  if (kind === "postgres") {
    const database = await createEmptyPostgresDatabase();
    env.DATABASE_URL = database.url;
    // Required with PostgreSQL, where instances cannot keep a generated one beside their data.
    env.APP_SECRET ??= randomBytes(32).toString("base64url");
    dropDatabase = database.drop;
  }
  const child = spawn(process.execPath, ["server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));

  const server: ProductionServer = {
    baseUrl,
    process: child,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      return code as number | null;
    },
    async dispose() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.dispose();
  throw new Error(`server did not become healthy:\n${output}`);
}
