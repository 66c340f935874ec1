import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type ProductionServer } from "./production-server";
import { testDatabaseKind } from "./test-database";

const kind = testDatabaseKind();
let server: ProductionServer;

beforeAll(async () => {
  server = await startProductionServer(kind);
});

afterAll(async () => {
  await server.dispose();
});

describe(`the production server on ${kind}`, () => {
  it("logs a 404 visit with its path and referrer", async () => {
    const response = await fetch(`${server.baseUrl}/no/such/page?x=1`, {
      headers: { Referer: "https://search.example/q" },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
    const line = server
      .output()
      .split("\n")
      .filter((entry) => entry.startsWith("{"))
      .map((entry) => JSON.parse(entry) as { msg: string; path?: string; referrer?: string })
      .find((entry) => entry.msg.startsWith("404"));
    expect(line).toMatchObject({ path: "/no/such/page", referrer: "https://search.example/q" });
  });

  it("stops cleanly on SIGTERM, closing the database", async () => {
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    if (kind === "pglite") expect(existsSync(join(server.dataDir, "server.lock"))).toBe(false);
  });
});
