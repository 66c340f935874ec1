import { existsSync } from "node:fs";
import { join } from "node:path";
import { subHours } from "date-fns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { NO_RETENTION_COUNTS } from "~/features/privacy/retention-job.server";
import { book } from "../../support/integration/personal-data-fixtures";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

const kind = testDatabaseKind();
let server: ProductionServer;

beforeAll(async () => {
  server = await startProductionServer(kind);
});

afterAll(async () => {
  await server.dispose();
});

/** The server's JSON log lines so far. */
function logLines() {
  return server
    .output()
    .split("\n")
    .filter((entry) => entry.startsWith("{"))
    .map((entry) => JSON.parse(entry) as { msg: string; [field: string]: unknown });
}

describe(`the production server on ${kind}`, () => {
  it("logs a 404 visit with its path and referrer", async () => {
    const response = await fetch(`${server.baseUrl}/no/such/page?x=1`, {
      headers: { Referer: "https://search.example/q" },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
    const line = logLines().find((entry) => entry.msg.startsWith("404"));
    expect(line).toMatchObject({ path: "/no/such/page", referrer: "https://search.example/q" });
  });

  it("runs the retention job shortly after boot and logs counts only", { timeout: 60_000 }, async () => {
    // On PostgreSQL the test can reach the server's database: an order made 49 hours ago is due.
    let database: DatabaseHandle | undefined;
    if (server.databaseUrl) {
      database = await openDatabase({ kind: "postgres", url: server.databaseUrl });
      await book(database.db, { email: "due@example.com", createdAt: subHours(new Date(), 49) });
    }
    const retentionLines = () => logLines().filter((entry) => entry.msg === "retention run");
    await expect.poll(retentionLines, { timeout: 30_000, interval: 500 }).toHaveLength(1);
    const {
      level,
      time: _time,
      pid: _pid,
      hostname: _hostname,
      msg: _msg,
      durationMs,
      ...counts
    } = retentionLines()[0]!;
    expect({ level, durationMs }).toEqual({ level: 30, durationMs: expect.any(Number) });
    const due = database ? 1 : 0;
    expect(counts).toEqual({ ...NO_RETENTION_COUNTS, unpaidOrders: due, orderEvents: due, customersDeleted: due });
    expect(server.output()).not.toContain("due@example.com");
    await database?.close();
  });

  it("stops cleanly on SIGTERM, closing the database", async () => {
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    if (kind === "pglite") expect(existsSync(join(server.dataDir, "server.lock"))).toBe(false);
  });
});

describe(`the production server started without NODE_ENV on ${kind}`, () => {
  // Lists, as the process exits, the React builds it ran (their CommonJS files; Node also caches,
  // without running them, the files an ES import of CommonJS might re-export).
  const reportReactBuilds = `
    import { writeSync } from "node:fs";
    import { createRequire } from "node:module";
    const loaded = createRequire(process.cwd() + "/").cache;
    process.on("exit", () => {
      const builds = Object.keys(loaded).filter((file) => /react(-dom)?.cjs/.test(file) && loaded[file].loaded);
      writeSync(1, "react builds: " + builds.map((file) => file.split("/").at(-1)).join(" ") + "\\n");
    });`;
  // NODE_OPTIONS is split at spaces.
  const preload = `--import=data:text/javascript,${encodeURIComponent(reportReactBuilds)}`;

  it("renders with React's production build", async () => {
    const unset = await startProductionServer(kind, {
      NODE_ENV: undefined,
      NODE_OPTIONS: preload,
    });
    try {
      expect((await fetch(`${unset.baseUrl}/auth`)).status).toBe(200);
      expect(await unset.stop()).toBe(0);
      const builds = /react builds: (.*)/.exec(unset.output())?.[1]?.split(" ") ?? [];
      expect(builds).toContain("react.production.js");
      expect(builds).toContain("react-dom-server.node.production.js");
      expect(builds.filter((file) => !file.includes(".production."))).toEqual([]);
    } finally {
      await unset.dispose();
    }
  });
});
