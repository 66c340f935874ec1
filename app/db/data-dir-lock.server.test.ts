import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "./data-dir-lock.server";

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lock-test-"));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("acquireDataDirLock", () => {
  it("refuses a folder another live process holds, naming that process", () => {
    // The test runner's parent process is alive for the whole test.
    writeFileSync(join(dataDir, "server.lock"), String(process.ppid));
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dataDir)).toThrow(`in use by process ${process.ppid}`);
  });

  it("takes over a lock left behind by a process that died", () => {
    writeFileSync(join(dataDir, "server.lock"), "2147483646");
    const release = acquireDataDirLock(dataDir);
    expect(readFileSync(join(dataDir, "server.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("frees the folder on release", () => {
    const release = acquireDataDirLock(dataDir);
    release();
    const again = acquireDataDirLock(dataDir);
    again();
  });
});
