import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "../../support/free-port";
import { fillGeneratorForm, SKYWAY_BRAND } from "../../support/e2e/config-generator-form";
import { signInAsNewAdmin } from "../../support/e2e/auth-page";
import { expect, test } from "../../support/e2e/fixtures";

// The generator's promise, proved: a site.config.ts downloaded from the page typechecks, builds and
// serves a site under the new brand. Slow (a typecheck and a production build of a copy of the
// project), so it has a generous timeout.

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const NOT_COPIED = new Set([
  "node_modules",
  "build",
  "data",
  ".git",
  ".react-router",
  "test-results",
  "playwright-report",
]);
// Caches that tools write into node_modules stay out, so the copy never writes into this project's.
const NODE_MODULES_CACHES = new Set([".tmp", ".vite", ".cache"]);

/** A copy of the project's sources in a temporary folder, with the installed packages linked in. */
function copyProject(): string {
  const copy = mkdtempSync(join(tmpdir(), "generated-site-"));
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(relative(root, source).split(sep)[0]!),
  });
  mkdirSync(join(copy, "node_modules"));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (!NODE_MODULES_CACHES.has(entry))
      symlinkSync(join(root, "node_modules", entry), join(copy, "node_modules", entry));
  }
  return copy;
}

async function npm(cwd: string, ...args: string[]) {
  try {
    await run("npm", args, { cwd, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in the generated project:\n${stdout}\n${stderr}`);
  }
}

test("a downloaded site.config.ts typechecks, builds and serves the new brand", async ({ page }) => {
  test.setTimeout(600_000);

  await signInAsNewAdmin(page);
  await page.goto("/config-generator");
  await fillGeneratorForm(page, { ...SKYWAY_BRAND, "Company name": `Skyway "Blue" Travel` });
  await page.getByRole("button", { name: "Generate Configuration" }).click();
  const preview = page.getByLabel("Configuration preview (JSON)");
  await expect(preview).toBeVisible();
  const expected = JSON.parse(await preview.innerText()) as {
    content: { hero: { title: string; subtitle: string } };
    seo: { defaultTitle: string };
  };
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download site.config.ts" }).click();
  const download = await downloading;

  const project = copyProject();
  let server: ChildProcess | undefined;
  try {
    await copyFile(await download.path(), join(project, "site.config.ts"));
    await npm(project, "run", "typecheck");
    await run(process.execPath, [join(root, "node_modules/prettier/bin/prettier.cjs"), "--check", "site.config.ts"], {
      cwd: project,
    });
    await npm(project, "run", "build");

    const port = await freePort();
    let output = "";
    server = spawn(process.execPath, ["server.js"], {
      cwd: project,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: join(project, "data"),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (response) => response.status,
            () => 0,
          ),
        {
          timeout: 60_000,
          message: `the generated site did not start:\n${output}`,
        },
      )
      .toBe(200);

    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(expected.content.hero.title);
    expect(expected.content.hero.title).not.toBe("Simplified Travel, Extraordinary Experiences");
    await expect(page.getByText(expected.content.hero.subtitle)).toBeVisible();
    await expect(page).toHaveTitle(expected.seo.defaultTitle);
    await expect(page.getByRole("banner")).toContainText(`Skyway "Blue" Travel`);
    await expect(page.getByRole("contentinfo")).toContainText(`Skyway "Blue" Travel`);
    const brandStyle = await page.locator("head style").first().textContent();
    expect(brandStyle).toContain("--primary:350 70% 50%;");
    expect(brandStyle).toContain("--primary-dark:350 70% 35%;");
    expect(brandStyle).toContain("--accent:160 60% 40%;");
    // Nothing of the old brand is left: every brand text comes from site.config.ts.
    expect(await page.content()).not.toMatch(/jetlane/i);
  } finally {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server!.once("exit", resolve));
    }
    rmSync(project, { recursive: true, force: true });
  }
});
