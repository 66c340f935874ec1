import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The folder-level import graph of app/: which feature imports which (admin's page families each a
// folder of their own), and what the platform pieces import. A circle between features means their
// vocabulary belongs in app/lib or in the one feature that owns it (ADR 014); the platform knows no
// feature at all.
const appDir = dirname(new URL(import.meta.url).pathname);

const IMPORT = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The folder a file belongs to: "booking", "admin/orders", "platform/mail"; undefined elsewhere in app/. */
function folderOf(path: string): string | undefined {
  const [top, name, sub, ...rest] = relative(appDir, path).split("/");
  if (top === "platform" && sub !== undefined) return `platform/${name}`;
  if (top !== "features" || sub === undefined) return undefined;
  // admin/<family>/…: a page family; admin/ui/… and admin's own files are what the families share.
  if (name === "admin" && rest.length > 0 && sub !== "ui") return `admin/${sub}`;
  return name;
}

/** The folder an import specifier lands in. */
function targetOf(specifier: string, importer: string): string | undefined {
  if (specifier.startsWith("~/")) return folderOf(`${join(appDir, specifier.slice(2))}.ts`);
  if (specifier.startsWith(".")) return folderOf(`${resolve(dirname(importer), specifier)}.ts`);
  return undefined;
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...sourceFiles(join(appDir, "features")), ...sourceFiles(join(appDir, "platform"))]) {
    const folder = folderOf(file)!;
    const edges = graph.get(folder) ?? new Set<string>();
    graph.set(folder, edges);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = targetOf(specifier!, file);
      if (target && target !== folder) edges.add(target);
    }
  }
  return graph;
}

/** Every circle of the graph, each as the path that closes it (a -> b -> a). */
function circles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe("the folders of app/", () => {
  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c", "a"]]);
  });

  it("reads features, admin's page families and the platform as folders of their own", () => {
    const graph = folderGraph();
    expect([...graph.keys()]).toEqual(
      expect.arrayContaining(["booking", "admin", "admin/orders", "admin/system", "platform/mail", "platform/seo"]),
    );
    expect(graph.get("admin/orders")).toContain("admin");
  });

  it("do not import each other in a circle", () => {
    expect(circles(folderGraph()).map((circle) => circle.join(" -> "))).toEqual([]);
  });

  it("keep the platform free of features", () => {
    const platformImports = [...folderGraph()]
      .filter(([folder]) => folder.startsWith("platform/"))
      .flatMap(([folder, targets]) =>
        [...targets].filter((target) => !target.startsWith("platform/")).map((target) => `${folder} -> ${target}`),
      );
    expect(platformImports).toEqual([]);
  });
});
