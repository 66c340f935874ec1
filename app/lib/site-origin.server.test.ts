import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandOrigin, recordServedOrigin, siteOrigin } from "./site-origin.server";

describe("siteOrigin", () => {
  it("is SITE_URL's origin, without its path", () => {
    expect(siteOrigin({ SITE_URL: "https://www.example.com/some/path", HOST: "127.0.0.1", PORT: 4201 })).toBe(
      "https://www.example.com",
    );
  });

  it.each([
    ["0.0.0.0", 3000, "http://localhost:3000"],
    ["::", 4201, "http://localhost:4201"],
    ["127.0.0.1", 4201, "http://127.0.0.1:4201"],
    ["shop.internal", 80, "http://shop.internal"],
    ["::1", 8080, "http://[::1]:8080"],
  ])("without SITE_URL, is where the server listens: HOST %s, PORT %i", (HOST, PORT, origin) => {
    expect(siteOrigin({ SITE_URL: undefined, HOST, PORT })).toBe(origin);
  });
});

describe("commandOrigin", () => {
  let dataDir: string;
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const command = { SITE_URL: undefined, HOST: "0.0.0.0", PORT: 3000, DATABASE_URL: undefined };

  it("on the embedded database, is where the server that used the data last listened", () => {
    dataDir = mkdtempSync(join(tmpdir(), "site-origin-"));
    expect(commandOrigin({ ...command, DATA_DIR: dataDir })).toBe("http://localhost:3000");
    recordServedOrigin({ SITE_URL: undefined, HOST: "0.0.0.0", PORT: 4201, DATA_DIR: dataDir });
    expect(commandOrigin({ ...command, DATA_DIR: dataDir })).toBe("http://localhost:4201");
    expect(commandOrigin({ ...command, DATA_DIR: dataDir, SITE_URL: "https://www.example.com/" })).toBe(
      "https://www.example.com",
    );
  });

  it("on PostgreSQL, is this environment's own", () => {
    dataDir = mkdtempSync(join(tmpdir(), "site-origin-"));
    recordServedOrigin({ SITE_URL: undefined, HOST: "0.0.0.0", PORT: 4201, DATA_DIR: dataDir });
    expect(commandOrigin({ ...command, DATA_DIR: dataDir, DATABASE_URL: "postgres://db.internal/site" })).toBe(
      "http://localhost:3000",
    );
  });
});
