// Run by `npm run build` after React Router's build: writes build/build-info.json, the version of the
// package, the commit it was built from and when, which the back office's system page shows. The
// commit is BUILD_COMMIT when set (for a build without the .git folder, as in a container image),
// else git's when the project is a git checkout and git is installed, else unknown: the server itself
// never runs git.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/** @param {string[]} args */
const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

function sourceCommit() {
  const given = process.env.BUILD_COMMIT?.trim();
  if (given) return { commit: given, modified: false };
  try {
    // Changes to tracked files that are not committed: the build is not exactly that commit.
    return { commit: git("rev-parse", "HEAD"), modified: git("status", "--porcelain", "--untracked-files=no") !== "" };
  } catch {
    return { commit: null, modified: false };
  }
}

const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const info = { version, ...sourceCommit(), builtAt: new Date().toISOString() };
writeFileSync("build/build-info.json", `${JSON.stringify(info, null, 2)}\n`);
console.log(`build/build-info.json: version ${info.version}, commit ${info.commit ?? "unknown"}`);
