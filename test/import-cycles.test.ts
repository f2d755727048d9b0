/**
 * No import cycle anywhere in src/ (CONTRIBUTING.md, "Layers"): every import counts, `import type`,
 * re-exports and dynamic `import()` included, since a cycle of types is still two modules that
 * cannot be read one without the other. The imports are read with TypeScript's own pre-processor,
 * and a cycle is named module by module.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./helpers/records.js";

const src = join(repoRoot, "src");

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(folder, entry.name)]
        : [],
  );
}

/**
 * The modules of src/ a file imports, as paths relative to src/: `import … from`, `import type … from`,
 * `export … from`, a bare `import "…"`, and `import("…")` (dynamic, or a type such as
 * `typeof import("…")`).
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  return [...text.matchAll(pattern)]
    .map((match) => (match[1] ?? match[2] ?? match[3])!)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(src, resolve(dirname(file), name)).replace(/\.js$/, ".ts"));
}

/** The import graph of src/: module → the modules it imports, both relative to src/. */
function importGraph(): Map<string, string[]> {
  return new Map(filesUnder(src).map((file) => [relative(src, file), [...new Set(importsOf(file))].sort()]));
}

/**
 * Every cycle, one per strongly connected component (Tarjan): a path that closes on itself, then, when the component
 * holds more modules than that path, every module of it.
 */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => {
    const cycle = cycleWithin(graph, new Set(component));
    const all = cycle.length - 1 < component.length ? ` (one cycle of ${component.sort().join(", ")})` : "";
    return `${cycle.join(" → ")}${all}`;
  });
}

/** One cycle through a strongly connected component: from its first module (by name), the shortest way back. */
function cycleWithin(graph: Map<string, string[]>, members: Set<string>): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

describe("import cycles", () => {
  test("the finder names a cycle, type imports included", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
    ]);
    expect(cyclesOf(graph)).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
    graph.set("d.ts", ["b.ts"]);
    graph.set("b.ts", ["c.ts", "d.ts"]);
    expect(cyclesOf(graph)).toEqual(["a.ts → b.ts → c.ts → a.ts (one cycle of a.ts, b.ts, c.ts, d.ts)"]);
    expect(
      cyclesOf(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  test("the graph reads type-only, re-exported and dynamic imports", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    // cli/main.ts loads node/config.ts only when a command runs; index.ts re-exports.
    expect([...graph.values()].flat()).toContain("node/config/config.ts");
    expect(graph.get("index.ts")!.length).toBeGreaterThan(5);
  });

  test("no module of src/ reaches itself through its imports", () => {
    expect(cyclesOf(importGraph())).toEqual([]);
  });
});
