import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBuildInfo } from "./build-info.server";

const WRITER = resolve("scripts/build-info.mjs");
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project folder as `npm run build` leaves it before the writer runs: package.json and build/. */
function project(version = "2.3.4") {
  const dir = mkdtempSync(join(tmpdir(), "build-info-"));
  dirs.push(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "site", version }));
  mkdirSync(join(dir, "build"));
  return dir;
}

/** Runs the build's writer in `dir`, then reads its record as the server does. */
function build(dir: string, environment: Record<string, string> = {}) {
  const { BUILD_COMMIT: _ignored, ...inherited } = process.env;
  execFileSync(process.execPath, [WRITER], { cwd: dir, env: { ...inherited, ...environment }, stdio: "ignore" });
  return readBuildInfo(join(dir, "build", "build-info.json"));
}

const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Build", "-c", "user.email=build@example.org", ...args], {
    cwd: dir,
    encoding: "utf8",
  }).trim();

describe("the build's record", () => {
  it("names the version and, outside a git checkout, no commit", () => {
    const info = build(project("2.3.4"));
    expect(info).toMatchObject({ version: "2.3.4", commit: null, modified: false });
    expect(Date.now() - new Date(info!.builtAt).getTime()).toBeLessThan(60_000);
  });

  it("takes the commit from BUILD_COMMIT when the build has no .git folder", () => {
    expect(build(project(), { BUILD_COMMIT: "4f0c2e1" })).toMatchObject({ commit: "4f0c2e1", modified: false });
  });

  it("takes the commit from git, and says when tracked files were changed since", () => {
    const dir = project();
    git(dir, "init", "--quiet");
    git(dir, "add", "package.json");
    git(dir, "commit", "--quiet", "-m", "first");
    const head = git(dir, "rev-parse", "HEAD");
    expect(build(dir)).toMatchObject({ commit: head, modified: false });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "site", version: "2.3.5" }));
    expect(build(dir)).toMatchObject({ version: "2.3.5", commit: head, modified: true });
  });

  it("is null without a build, or with a file it cannot read", () => {
    const dir = project();
    expect(readBuildInfo(join(dir, "build", "build-info.json"))).toBeNull();
    writeFileSync(join(dir, "broken.json"), "{ not json");
    expect(readBuildInfo(join(dir, "broken.json"))).toBeNull();
    writeFileSync(join(dir, "other.json"), JSON.stringify({ version: 1 }));
    expect(readBuildInfo(join(dir, "other.json"))).toBeNull();
  });
});
