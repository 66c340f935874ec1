import { randomBytes } from "node:crypto";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/support/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// With TEST_DATABASE_URL the server runs on a PostgreSQL database of its own, which the tests can
// reach too (the admin CLI beside the running server, orders to show); otherwise on embedded PGlite.
// Set once here in the runner; the workers inherit it.
if (process.env.TEST_DATABASE_URL && !process.env.E2E_DATABASE_URL) {
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/e2e_${randomBytes(6).toString("hex")}`;
  process.env.E2E_DATABASE_URL = url.toString();
}
// The server's secret, shared with the CLIs the tests run beside it (billing mails carry sealed links).
process.env.E2E_APP_SECRET ??= randomBytes(32).toString("base64url");
// The address the browser uses, the server's SITE_URL (required in production on PostgreSQL) and its
// commands': mails then link where the browser's cookies are.
process.env.E2E_SITE_URL = `http://127.0.0.1:${PORT}`;

// The mail sink's ports follow E2E_PORT, so parallel runs on other ports never share a sink.
const MAIL_SINK_SMTP_PORT = PORT + 20_000;
const MAIL_SINK_HTTP_PORT = PORT + 21_000;
// Read by `waitForMail` in tests/support/e2e/fixtures.ts (the test workers inherit this process's environment).
process.env.MAIL_SINK_URL = `http://127.0.0.1:${MAIL_SINK_HTTP_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // Two browsers, the server, PostgreSQL and the mail sink share two cores: a page load or a form
  // post then takes one to three seconds, and the longest journeys (sign up, get the admin role,
  // book, check the dashboard, sign out) over half a minute.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  globalTeardown: "./tests/support/e2e/global-teardown.ts",
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Toasts then appear without fading in, so that accessibility checks see them as they settle.
    reducedMotion: "reduce",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      command: "node tests/support/e2e/mail-sink.mjs",
      url: `${process.env.MAIL_SINK_URL}/health`,
      env: { MAIL_SINK_SMTP_PORT: String(MAIL_SINK_SMTP_PORT), MAIL_SINK_HTTP_PORT: String(MAIL_SINK_HTTP_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node tests/support/e2e/serve.mjs",
      url: `http://127.0.0.1:${PORT}/healthz`,
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        SITE_URL: process.env.E2E_SITE_URL,
        LOG_LEVEL: "warn",
        // Trusting the loopback proxy lets each test speak from an address of its own (fixtures.ts), so
        // that tests running together do not exhaust one address's sign-in rate limit.
        TRUST_PROXY: "loopback",
        SMTP_URL: `smtp://127.0.0.1:${MAIL_SINK_SMTP_PORT}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
    },
  ],
});
