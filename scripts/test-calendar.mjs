// Runs the tests of dates again with the whole process's clock set to days that break month
// arithmetic (libfaketime), in Amsterdam's time zone: a rule that only holds on most days of the year
// fails here on any day, not on the day the calendar reaches it (ADR 016).
//   npm run test:calendar                      the days below
//   npm run test:calendar -- "2027-05-31 10:00" one day of your own, as Amsterdam's wall clock reads it
import { spawnSync } from "node:child_process";
import { ensureDebianPackage } from "./debian-package.mjs";

const DAYS = [
  // Late on the 31st: the next month is short, and UTC is still on the 31st.
  "2027-01-31 23:30:00",
  // The leap day: its trial ends on 3 March, a quarter later is 3 June.
  "2028-02-29 10:00:00",
  // A trial that runs across the spring clock change (28 March 2027).
  "2027-03-26 10:00:00",
];

const FILES = [
  "app/",
  "tests/integration/memberships/billing-calendar.test.ts",
  "tests/integration/memberships/memberships.test.ts",
  "tests/integration/memberships/membership-notice.test.ts",
  "tests/integration/payments/stripe-payments.test.ts",
  "tests/integration/withdrawal/withdrawal.test.ts",
  "tests/integration/privacy/data-requests.test.ts",
  "tests/integration/payments/fake-stripe.test.ts",
];

const faketime = ensureDebianPackage({
  packageName: "faketime",
  paths: [process.env.FAKETIME_PATH, "/usr/bin/faketime"],
  hint: "Install it (Debian/Ubuntu: `sudo apt-get install faketime`) or point FAKETIME_PATH at libfaketime's faketime.",
});

const days = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DAYS;
for (const day of days) {
  console.log(`\n=== the tests of dates with the clock at ${day} (Europe/Amsterdam) ===`);
  // On the embedded database only: PGlite runs in this process and reads the faked clock, while a
  // PostgreSQL server keeps the real one for its now() and column defaults.
  const projects = ["--project", "unit", "--project", "integration-pglite"];
  const run = spawnSync(faketime, ["-f", `@${day}`, "npx", "vitest", "run", ...projects, ...FILES], {
    stdio: "inherit",
    // The clock keeps running from that moment, in every process the tests start.
    env: { ...process.env, TZ: "Europe/Amsterdam", FAKETIME_DONT_RESET: "1" },
  });
  if (run.status !== 0) {
    console.error(`The tests of dates failed with the clock at ${day}.`);
    process.exit(run.status ?? 1);
  }
}
