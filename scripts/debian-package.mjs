// Finds a program the tests or benchmarks need, installing its Debian package when it is missing.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Returns the first of `paths` that exists, after installing `packageName` with apt-get when none
 * does (as root on Debian or Ubuntu); elsewhere it exits with `hint`.
 * @param {{ packageName: string; paths: (string | undefined)[]; hint: string }} program
 * @returns {string}
 */
export function ensureDebianPackage({ packageName, paths, hint }) {
  const candidates = paths.filter((path) => path !== undefined);
  const found = () => candidates.find((path) => existsSync(path));
  const present = found();
  if (present) return present;
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    console.error(`${packageName} not found. ${hint}`);
    process.exit(1);
  }
  console.log(`${packageName} not found: installing Debian's ${packageName} package...`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", packageName], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  const installed = found();
  if (!installed) throw new Error(`${packageName} was installed but none of ${candidates.join(", ")} exists`);
  return installed;
}
