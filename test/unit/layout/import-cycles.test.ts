// The project's modules import one another without a cycle, type imports included: a
// cycle ties modules that cannot be read, tested or moved apart. Relative imports of the
// TypeScript sources are read as text and the strongly connected components of their graph
// are listed.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const DIRS = [
  "node",
  "client",
  "proto",
  "verify",
  "chaos",
  "bench",
  "scripts",
  "test",
  "cluster-config",
];
const IMPORT = /(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']/gs;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "gen" && entry.name !== "node_modules") out.push(...sources(path));
    } else if (/\.m?ts$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

/** Each module's relative imports of other sources of the project. */
function importGraph(
  files: readonly string[],
  read: (file: string) => string,
): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...read(file).matchAll(IMPORT)]
      .map((m) => normalize(join(dirname(file), m[1]!)))
      .filter((t) => known.has(t));
    graph.set(file, targets);
  }
  return graph;
}

/** The groups of two or more modules that reach one another (Tarjan's algorithm). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("the import graph", () => {
  it("finds a cycle, a type import's included, when there is one", () => {
    const files: Record<string, string> = {
      "a.ts": 'import { b } from "./b.ts";',
      "b.ts": 'import type { C } from "./c.ts";\nexport const b = 1;',
      "c.ts": 'export type { A } from "./a.ts";',
      "d.ts": 'import { b } from "./b.ts";',
    };
    const graph = importGraph(Object.keys(files), (f) => files[f]!);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("has no cycle among the project's modules", () => {
    const files = DIRS.flatMap(sources);
    expect(files.length).toBeGreaterThan(300);
    const graph = importGraph(files, (f) => readFileSync(join(ROOT, f), "utf8"));
    const cycles = cyclesOf(graph).map((group) => group.map((f) => relative(".", f)).join(" ↔ "));
    expect(cycles).toEqual([]);
  });
});
