import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmptyPostgresDatabase, type TestDatabaseKind } from "./test-database";
import { productionServerArgs } from "./production-node";
import { freePort } from "./free-port";

export interface ProductionServer {
  baseUrl: string;
  process: ChildProcess;
  dataDir: string;
  /** The server's own PostgreSQL database, when it runs on PostgreSQL. */
  databaseUrl?: string;
  appSecret?: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the process if it still runs and throws its data away (unless it used another server's). */
  dispose(): Promise<void>;
}

/**
 * Boots the production build (`npm run build` comes first in `npm test`) as a real process on
 * its own embedded data folder, or on a fresh PostgreSQL database, and waits until it is healthy.
 */
export async function startProductionServer(
  kind: TestDatabaseKind,
  extraEnv: NodeJS.ProcessEnv = {},
  /**
   * Another server whose data (folder or database) this one uses: a stopped or killed one it takes
   * over on the same port, or, on PostgreSQL, a running one it runs beside on a port of its own. The
   * data stays that server's to dispose of.
   */
  {
    dataOf,
    samePort = false,
    postgresServerUrl,
    databaseUrl,
    dataDir: givenDataDir,
  }: {
    dataOf?: ProductionServer;
    samePort?: boolean;
    /** Where to create the database, if not TEST_DATABASE_URL's server. */
    postgresServerUrl?: string;
    /** A PostgreSQL database to use as it is, left for the caller to drop. */
    databaseUrl?: string;
    /** An embedded database's folder to use as it is, left for the caller to remove. */
    dataDir?: string;
  } = {},
): Promise<ProductionServer> {
  const port = dataOf && samePort ? Number(new URL(dataOf.baseUrl).port) : await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = dataOf?.dataDir ?? givenDataDir ?? mkdtempSync(join(tmpdir(), "server-process-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    // One process on either database unless a test asks for more (the default on PostgreSQL is one per core).
    WEB_CONCURRENCY: "1",
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  // Required in production on PostgreSQL; on the embedded database, HOST and PORT give the same address.
  if (kind === "postgres") env.SITE_URL ??= baseUrl;
  let removeData = async () => {};
  if (kind === "postgres" && dataOf) {
    env.DATABASE_URL = dataOf.databaseUrl;
    env.APP_SECRET = dataOf.appSecret;
  } else if (kind === "postgres" && databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    env.APP_SECRET ??= randomBytes(32).toString("base64url");
  } else if (kind === "postgres") {
    const database = await createEmptyPostgresDatabase(postgresServerUrl);
    env.DATABASE_URL = database.url;
    // Required with PostgreSQL, where instances cannot keep a generated one beside their data.
    env.APP_SECRET ??= randomBytes(32).toString("base64url");
    removeData = () => database.drop();
  }
  if (!dataOf && !givenDataDir) {
    const dropDatabase = removeData;
    removeData = async () => {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const child = spawn(process.execPath, productionServerArgs(), { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));

  const server: ProductionServer = {
    baseUrl,
    process: child,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    appSecret: env.APP_SECRET,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      return code as number | null;
    },
    async dispose() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await removeData();
    },
  };

  // Gives up before the suite's 60 s hook timeout, so a server that never gets healthy fails with its output.
  const startedAt = Date.now();
  const deadline = startedAt + 45_000;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  let lastAnswer = "no answer";
  while (Date.now() < deadline && !exited()) {
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return server;
      lastAnswer = `HTTP ${response.status}`;
    } catch (error) {
      lastAnswer = String((error as Error).cause ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const ending = exited()
    ? `exited (code ${child.exitCode}, signal ${child.signalCode})`
    : `still running, last /healthz on port ${port}: ${lastAnswer}`;
  await server.dispose();
  throw new Error(`server not healthy after ${Date.now() - startedAt} ms, ${ending}; its output:\n${output}`);
}
