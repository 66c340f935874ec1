import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

const dataDir = mkdtempSync(join(tmpdir(), "secret-test-"));

async function freshSecrets(environment: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  return import("./secrets.server");
}

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(join(dataDir, "app-secret"), { force: true });
});

describe("appSecret", () => {
  it("uses APP_SECRET when set", async () => {
    const { appSecret } = await freshSecrets({ APP_SECRET: "x".repeat(40), DATA_DIR: dataDir });
    expect(appSecret()).toBe("x".repeat(40));
  });

  it("generates one into DATA_DIR on the embedded database, readable only by its owner, and keeps it", async () => {
    const first = await freshSecrets({ DATA_DIR: dataDir, DATABASE_URL: "" });
    const secret = first.appSecret();
    expect(secret).toHaveLength(43);
    expect(readFileSync(join(dataDir, "app-secret"), "utf8")).toBe(secret);
    expect(statSync(join(dataDir, "app-secret")).mode & 0o777).toBe(0o600);
    const second = await freshSecrets({ DATA_DIR: dataDir, DATABASE_URL: "" });
    expect(second.appSecret()).toBe(secret);
  });

  it("is required with PostgreSQL, where instances must share it", async () => {
    const { appSecret } = await freshSecrets({ DATABASE_URL: "postgres://db/site", APP_SECRET: "" });
    expect(() => appSecret()).toThrow(/APP_SECRET must be set/);
  });
});

describe("deriveKey", () => {
  it("gives each purpose its own stable key", async () => {
    const { deriveKey } = await freshSecrets({ APP_SECRET: "y".repeat(40) });
    expect(deriveKey("vouchers")).toHaveLength(32);
    expect(deriveKey("vouchers").equals(deriveKey("vouchers"))).toBe(true);
    expect(deriveKey("vouchers").equals(deriveKey("unsubscribe"))).toBe(false);
  });
});
