import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "./zod";

/** What `npm run build` wrote of itself (scripts/build-info.mjs). */
const buildInfoSchema = z.object({
  version: z.string(),
  /** Null when the build was made outside a git checkout without BUILD_COMMIT. */
  commit: z.string().nullable(),
  /** Tracked files differed from the commit. */
  modified: z.boolean(),
  builtAt: z.iso.datetime(),
});
export type BuildInfo = z.infer<typeof buildInfoSchema>;

/** The build's record at `path`, or null when there is none: a server run from the sources (`npm run dev`, tests). */
export function readBuildInfo(path: string): BuildInfo | null {
  let written: unknown;
  try {
    written = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  const parsed = buildInfoSchema.safeParse(written);
  return parsed.success ? parsed.data : null;
}

let current: BuildInfo | null | undefined;

/** This server's build, read once: it does not change while the process runs. */
export function buildInfo(): BuildInfo | null {
  if (current === undefined) current = readBuildInfo(resolve("build/build-info.json"));
  return current;
}
