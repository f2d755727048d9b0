/**
 * The layers point one way: cli → node → engine / rules → core, with formatters on core alone
 * (CONTRIBUTING.md, "Layers"). This test reads every import of src/ and fails on one that points
 * the wrong way, naming the file and the import.
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

/** Every module a file imports (static, re-export and dynamic), as written. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

/** The modules a file imports at run time: `import type` and `export type` left out. */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

/** The layer of a file under src/: its first folder ("index" for src/index.ts). */
const layerOf = (file: string) => relative(src, file).split("/")[0]!.replace(/\.ts$/, "");

/** What each layer may import from src/, by layer (and, for the engine, never the rule registry). */
const ALLOWED: Record<string, readonly string[]> = {
  core: ["core"],
  rules: ["core", "rules"],
  engine: ["core", "engine", "rules"],
  formatters: ["core", "formatters"],
  node: ["core", "rules", "engine", "formatters", "node"],
  cli: ["core", "rules", "engine", "formatters", "node", "cli"],
  index: ["core", "rules", "engine", "formatters", "node"],
  "core-api": ["core", "rules", "engine"],
};

/**
 * The core's concepts, one folder each (CONTRIBUTING.md, "Layers"), and the few modules every one
 * of them uses, at the top of src/core. A core folder may import any other (the core is one layer),
 * never a layer above it.
 */
const CORE_FOLDERS = ["address", "diff", "json", "lock", "markdown", "records", "report", "resolve", "schema"];
const CORE_TOP = ["bytes.ts", "digest.ts", "errors.ts", "lines.ts", "model.ts", "paths.ts", "text.ts", "utf8.ts"];

/**
 * The node layer's folders (CONTRIBUTING.md, "Layers"), by what they serve, and the modules every one of them uses, at
 * the top of src/node.
 */
const NODE_FOLDERS = [
  "cache",
  "config",
  "dataset",
  "diff",
  "files",
  "generate",
  "git",
  "pool",
  "records",
  "resolve",
  "update",
  "validate",
  "view",
  "writes",
];
const NODE_TOP = ["builtins.ts", "code-root.ts", "errors.ts"];

/**
 * The modules of the commands themselves: what a command runs, given its options. Shared work (a record reader, the
 * generated lines, the per-file validator, a pool's task) lives beside them in modules of its own, so that no command
 * imports another's, and the worker loads no command.
 */
const COMMAND_MODULES = [
  "node/validate/validate.ts",
  "node/generate/generate.ts",
  "node/update/update.ts",
  "node/update/adopt.ts",
  "node/diff/diff.ts",
  "node/view/view.ts",
  "node/resolve/resolve.ts",
];

/** Node built-ins that do I/O or start threads: the core does neither. */
const IO_MODULES = [
  "node:fs",
  "node:fs/promises",
  "node:child_process",
  "node:worker_threads",
  "node:net",
  "node:http",
  "node:https",
  "node:process",
];

describe("layers", () => {
  const files = filesUnder(src);
  test("every file of src/ belongs to a known layer", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) expect(Object.keys(ALLOWED), relative(repoRoot, file)).toContain(layerOf(file));
  });

  test.each(Object.keys(ALLOWED))("%s imports only from the layers below it", (layer) => {
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === layer)) {
      for (const specifier of importsOf(file)) {
        if (layer === "core" && IO_MODULES.includes(specifier))
          wrong.push(`${relative(repoRoot, file)} imports ${specifier} (the core does no I/O)`);
        if (!specifier.startsWith(".")) continue;
        const target = resolve(dirname(file), specifier);
        const targetLayer = layerOf(target.replace(/\.js$/, ".ts"));
        if (!ALLOWED[layer]!.includes(targetLayer))
          wrong.push(`${relative(repoRoot, file)} imports ${specifier} (${layer} → ${targetLayer})`);
        if (layer === "engine" && relative(src, target) === "rules/index.js")
          wrong.push(`${relative(repoRoot, file)} imports the rule registry: the engine is given its rules`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("every file of src/core is one of its top modules or in one of its concept folders, one level deep", () => {
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "core")) {
      const parts = relative(join(src, "core"), file).split("/");
      const known =
        parts.length === 1 ? CORE_TOP.includes(parts[0]!) : parts.length === 2 && CORE_FOLDERS.includes(parts[0]!);
      if (!known) wrong.push(relative(repoRoot, file));
    }
    expect(wrong).toEqual([]);
    for (const folder of CORE_FOLDERS)
      expect(
        files.some((f) => relative(join(src, "core"), f).startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
  });

  test("every file of src/node is one of its top modules or in one of its folders, one level deep", () => {
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "node")) {
      const parts = relative(join(src, "node"), file).split("/");
      const known =
        parts.length === 1 ? NODE_TOP.includes(parts[0]!) : parts.length === 2 && NODE_FOLDERS.includes(parts[0]!);
      if (!known) wrong.push(relative(repoRoot, file));
    }
    expect(wrong).toEqual([]);
    for (const folder of NODE_FOLDERS)
      expect(
        files.some((f) => relative(join(src, "node"), f).startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
  });

  test("no module of src/node imports a command's own module at run time, but adopt, which runs update", () => {
    // A command's options type may be named elsewhere (the library's config completes them): `import type` loads nothing.
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "node")) {
      const from = relative(src, file);
      for (const specifier of valueImportsOf(file)) {
        if (!specifier.startsWith(".")) continue;
        const target = relative(src, resolve(dirname(file), specifier)).replace(/\.js$/, ".ts");
        if (
          COMMAND_MODULES.includes(target) &&
          target !== from &&
          !(from === "node/update/adopt.ts" && target === "node/update/update.ts")
        )
          wrong.push(`${from} imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
    for (const command of COMMAND_MODULES) expect(files, command).toContain(join(src, command));
  });

  test("in the core, only core/bytes.ts uses Node: no other core file imports a node: module or names Buffer or crypto", () => {
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "core" && relative(src, f) !== "core/bytes.ts")) {
      for (const specifier of importsOf(file))
        if (specifier.startsWith("node:")) wrong.push(`${relative(repoRoot, file)} imports ${specifier}`);
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const name of ["Buffer", "crypto"])
        if (new RegExp(`\\b${name}\\b`).test(code)) wrong.push(`${relative(repoRoot, file)} uses ${name}`);
    }
    expect(wrong).toEqual([]);
    expect(importsOf(join(src, "core", "bytes.ts"))).toEqual(expect.arrayContaining(["node:crypto", "node:buffer"]));
  });

  test("the check itself catches a wrong import", () => {
    // A fake core file that imports the node layer: the same test logic must flag it.
    const fake = join(src, "core", "fake.ts");
    const target = resolve(dirname(fake), "../node/files.js");
    expect(ALLOWED.core!.includes(layerOf(target.replace(/\.js$/, ".ts")))).toBe(false);
    expect(importsOf(join(src, "engine", "check-file.ts"))).toContain("../rules/define.js");
    // The same from a core folder, one level deeper.
    const deeper = join(src, "core", "records", "fake.ts");
    expect(layerOf(resolve(dirname(deeper), "../../node/files.js").replace(/\.js$/, ".ts"))).toBe("node");
    expect(
      ALLOWED.core!.includes(layerOf(resolve(dirname(deeper), "../../node/files.js").replace(/\.js$/, ".ts"))),
    ).toBe(false);
    expect(layerOf(resolve(dirname(deeper), "../address/address.js").replace(/\.js$/, ".ts"))).toBe("core");
  });
});
