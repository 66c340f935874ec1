// Finds the Chromium the browser tests drive, installing Debian's package when it is missing.
import { ensureDebianPackage } from "./debian-package.mjs";

ensureDebianPackage({
  packageName: "chromium",
  paths: [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"],
  hint: "Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or point CHROMIUM_PATH at a Chromium or Chrome binary.",
});
