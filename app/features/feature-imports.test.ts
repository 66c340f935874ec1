import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The folder-level import graph of app/features: which feature imports which. A circle between
// features means their vocabulary belongs in app/lib or in the one feature that owns it (ADR 014).
const featuresDir = dirname(new URL(import.meta.url).pathname);
const appDir = resolve(featuresDir, "..");

const IMPORT = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature folder an import specifier lands in, or undefined outside app/features. */
function featureOf(specifier: string, importer: string): string | undefined {
  let target: string;
  if (specifier.startsWith("~/")) target = join(appDir, specifier.slice(2));
  else if (specifier.startsWith(".")) target = resolve(dirname(importer), specifier);
  else return undefined;
  const inFeatures = relative(featuresDir, target);
  return inFeatures.startsWith("..") ? undefined : inFeatures.split("/")[0];
}

function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(featuresDir)) {
    const feature = relative(featuresDir, file).split("/")[0]!;
    const edges = graph.get(feature) ?? new Set<string>();
    graph.set(feature, edges);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = featureOf(specifier!, file);
      if (target && target !== feature) edges.add(target);
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

describe("feature folders", () => {
  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c", "a"]]);
  });

  it("do not import each other in a circle", () => {
    const graph = featureGraph();
    expect(graph.size).toBeGreaterThan(5);
    expect(circles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });
});
