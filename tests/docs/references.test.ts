import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, posix, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The README and the guides in docs/ name files (`app/db/schema.ts`, `payments/refunds.server.ts`)
// and code (`MEMBERSHIP_TERMS`, `recordFeesPaid`) in backticks, and link to each other. A rename
// in the code leaves them pointing at nothing; this test lists every such name with its file and
// line, so that the docs are fixed in the same change.

const root = resolve(dirname(new URL(import.meta.url).pathname), "../..");

/** Folders the app or the tools write, never part of the repository. */
const OUTPUT_FOLDERS = new Set([
  ".git",
  "node_modules",
  "build",
  ".react-router",
  "data",
  "backups",
  "test-results",
  "playwright-report",
]);

/** Every file on disk that git knows, tracked or new (not ignored); without git, every file outside the outputs. */
function listRepoFiles(): string[] {
  try {
    return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\0")
      .filter((file) => file !== "" && existsSync(resolve(root, file)));
  } catch {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => posix.relative(root, posix.join(entry.parentPath, entry.name)))
      .filter((file) => !file.split("/").some((part) => OUTPUT_FOLDERS.has(part)));
  }
}

const repoFiles = listRepoFiles();
const repoFolders = new Set<string>();
for (const file of repoFiles) {
  const parts = file.split("/");
  for (let end = 1; end < parts.length; end++) repoFolders.add(parts.slice(0, end).join("/"));
}
const repoPaths = [...repoFiles, ...repoFolders];
const repoPathSet = new Set(repoPaths);

/** The docs: the README and every guide and decision, but the ADR template, whose names are placeholders. */
const docs = repoFiles.filter(
  (file) =>
    file === "README.md" ||
    (file.startsWith("docs/") && file.endsWith(".md") && file !== "docs/decisions/000-template.md"),
);

/** Where code names are looked for: the source folders and the root's configuration. */
const SOURCE_FOLDERS = ["app/", "server/", "scripts/", "tests/", "bench/", "deploy/", "drizzle/", ".ci/"];
const isSource = (file: string) =>
  (SOURCE_FOLDERS.some((folder) => file.startsWith(folder)) || !file.includes("/")) &&
  !file.endsWith(".md") &&
  !file.startsWith("drizzle/meta/") &&
  file !== "package-lock.json";

const sourceWords = new Set<string>();
for (const file of repoFiles.filter(isSource)) {
  for (const word of readFileSync(resolve(root, file), "utf8").match(/[A-Za-z_$][\w$]*/g) ?? []) sourceWords.add(word);
}

/** Endings of the files the docs name. */
const FILE_EXTENSION = /(\.(ts|tsx|mts|mjs|js|cjs|json|md|sql|css|conf|ya?ml|env|service|sh)|\.env\.example)$/;
/** An identifier, perhaps with `.member`s and a call: `orderTerms()`, `MEMBERSHIP_TERMS.changeOfMindDays`. */
const CODE_NAME = /^([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*)*)(\([^()]*\))?$/;
const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/**
 * A word that can only be a name in the code: camelCase with a capital, PascalCase, SCREAMING_SNAKE_CASE.
 * One word in capitals (`LISTEN`, `UTC`) is a keyword or an abbreviation unless a member or call follows.
 */
function looksLikeCode(word: string, followed = false): boolean {
  if (/^[a-z][a-z0-9]*[A-Z]/.test(word)) return true; // camelCase
  if (/^[A-Z][a-z0-9]+[A-Z]/.test(word)) return true; // PascalCase of two words or more
  return word.length >= 2 && SCREAMING_SNAKE.test(word) && (word.includes("_") || followed);
}

/**
 * Names the docs take from outside this repository on purpose, with where they come from. Keep this
 * short: a name of ours that is missing is a stale doc, not an entry here.
 */
const OUTSIDE_NAMES = new Set([
  "monitorEventLoopDelay", // node:perf_hooks, how ADR 021 measured the blocked event loop
  "execProtocolRaw", // PGlite's call that ADR 021 explains we avoid
  "increase", // PromQL, in ADR 024
]);

interface Reference {
  doc: string;
  line: number;
  token: string;
}

/** The text with fenced code blocks blanked out, lines kept, so that offsets still give lines. */
function withoutFences(text: string): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) {
        fence = marker;
        return "";
      }
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return "";
      }
      return line;
    })
    .join("\n");
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

/** Every inline code span outside fenced blocks; one that runs over a line break keeps a space. */
function codeSpans(doc: string): Reference[] {
  const text = withoutFences(readFileSync(resolve(root, doc), "utf8"));
  return [...text.matchAll(/(?<!`)`([^`]+?)`(?!`)/g)].map((match) => ({
    doc,
    line: lineAt(text, match.index),
    token: match[1]!.replace(/\s+/g, " ").trim(),
  }));
}

/** A path glob (`admin.*.tsx`, `features/<name>/`) as a pattern over the repository's paths. */
function pathPattern(path: string): RegExp {
  const escaped = path
    .split(/(<[^>]+>|\*)/)
    .map((part) => (part === "*" || part.startsWith("<") ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`(^|/)${escaped}$`);
}

/** Whether a path named in `doc` is in the repository: from the root, app/, the doc's folder, or as a suffix. */
function pathExists(doc: string, path: string): boolean {
  const clean = path.replace(/^\.\//, "").replace(/\/$/, "");
  if (/[*<]/.test(clean)) {
    const pattern = pathPattern(clean);
    return repoPaths.some((candidate) => pattern.test(candidate));
  }
  const fromDoc = posix.normalize(posix.join(posix.dirname(doc), clean));
  if (repoPathSet.has(clean) || repoPathSet.has(`app/${clean}`) || repoPathSet.has(fromDoc)) return true;
  return !clean.startsWith("..") && repoPaths.some((candidate) => candidate.endsWith(`/${clean}`));
}

/** Paths git ignores (build output, ./data, backups/) are made by the app, not kept in the repository. */
function ignoredByGit(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    const out = execFileSync("git", ["check-ignore", "--no-index", "--stdin", "-z"], {
      cwd: root,
      input: paths.join("\0"),
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    });
    return new Set(out.split("\0").filter(Boolean));
  } catch {
    // Exit code 1: none of them is ignored. Without git: the output folders are.
    return new Set(paths.filter((path) => OUTPUT_FOLDERS.has(path.split("/")[0]!)));
  }
}

type Problem = Reference & { why: string };

function checkCodeSpans(): Problem[] {
  const problems: Problem[] = [];
  const missingPaths: Problem[] = [];
  for (const reference of docs.flatMap(codeSpans)) {
    // A call keeps only its name: `enqueueMail(tx, mail)` names `enqueueMail`.
    const token = reference.token.replace(/^([\w$.]+)\([^()]*\)$/, "$1()");
    // Shell commands and sentences, URLs and the site's own addresses, elisions (`STRIPE_…`).
    if (/\s/.test(token) || token.includes("://") || token.startsWith("/") || token.includes("…")) continue;
    const path = token.replace(/(:\d+)+$/, "").replace(/#.*$/, "");
    const looksLikePath = /^[\w@.<>*/+-]+$/.test(path) && /[a-z]/i.test(path) && !path.startsWith("@");
    if (looksLikePath && (path.includes("/") || FILE_EXTENSION.test(path))) {
      const [first] = path.split("/");
      if (first && SCREAMING_SNAKE.test(first) && first.length >= 2) {
        // A path inside a configured folder (`DATA_DIR/.restoring`): the variable is the reference.
        if (!sourceWords.has(first)) problems.push({ ...reference, why: `no variable ${first} in the code` });
      } else if (!pathExists(reference.doc, path)) {
        missingPaths.push({ ...reference, token: path, why: "no such file or folder" });
      }
      continue;
    }
    const name = CODE_NAME.exec(token);
    if (!name) continue;
    const [, first = "", members = "", call] = name;
    // `sum()` is a function; `orders.consent_wording` is a column and `pending` a value, not code names.
    const followed = members !== "" || call !== undefined;
    if (!looksLikeCode(first, followed) && (call === undefined || members !== "")) continue;
    const words = [first, ...members.split(".").filter((word) => looksLikeCode(word))];
    for (const word of words.filter((word) => !sourceWords.has(word) && !OUTSIDE_NAMES.has(word))) {
      problems.push({ ...reference, why: `no ${word} in the code` });
    }
  }
  // As a folder too: `data/` in .gitignore matches `./data` only as a folder.
  const asIgnored = (token: string) => token.replace(/^\.\//, "").replace(/\/$/, "");
  const ignored = ignoredByGit(missingPaths.flatMap(({ token }) => [asIgnored(token), `${asIgnored(token)}/`]));
  const kept = missingPaths.filter(
    ({ token }) => !ignored.has(asIgnored(token)) && !ignored.has(`${asIgnored(token)}/`),
  );
  return [...problems, ...kept];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces turned into dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const text = withoutFences(readFileSync(resolve(root, file), "utf8"));
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function checkLinks(): Problem[] {
  const problems: Problem[] = [];
  for (const doc of docs) {
    const text = withoutFences(readFileSync(resolve(root, doc), "utf8")).replace(/`[^`]*`/g, (span) =>
      span.replace(/[^\n]/g, " "),
    );
    // Inline links, `[text](target)`, and reference definitions, `[name]: target`.
    for (const match of text.matchAll(/\]\(([^)\s]+)\)|^ {0,3}\[[^\]]+\]:\s+(\S+)/gm)) {
      const target = (match[1] ?? match[2])!;
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const reference = { doc, line: lineAt(text, match.index), token: target };
      const [file = "", anchor] = target.split("#");
      const resolved = file === "" ? doc : posix.normalize(posix.join(posix.dirname(doc), file)).replace(/\/$/, "");
      if (!repoPathSet.has(resolved)) {
        problems.push({ ...reference, why: "links to no file or folder" });
      } else if (anchor !== undefined && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
        problems.push({ ...reference, why: `${resolved} has no heading #${anchor}` });
      }
    }
  }
  return problems;
}

const report = (problems: Problem[]) =>
  problems.map((problem) => `${problem.doc}:${problem.line} \`${problem.token}\`: ${problem.why}`).join("\n");

describe("the README and docs/", () => {
  it("name only files, folders and code that exist", () => {
    expect(docs).toContain("README.md");
    expect(report(checkCodeSpans())).toBe("");
  });

  it("link only to files and headings that exist", () => {
    expect(report(checkLinks())).toBe("");
  });
});
