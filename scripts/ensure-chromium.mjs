// Finds the Chromium the browser tests drive, installing Debian's package when it is missing.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
  (path) => path !== undefined,
);

if (!candidates.some((path) => existsSync(path))) {
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    console.error(
      "Chromium not found. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) " +
        "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
    );
    process.exit(1);
  }
  console.log("Chromium not found: installing Debian's chromium package...");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit" });
}
