// Serves the production build on a throwaway embedded database for one Playwright run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "e2e-data-"));
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

await import("../../server.js");
