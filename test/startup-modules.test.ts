/**
 * Issue 32, item 7 (start-up): what each command loads, and what it does not. The program starts with commander and
 * the commands' registrations, which import only constants (`--version` and `--help` load nothing else); a command
 * loads its own modules when its action runs; no command loads a package it does not use (the YAML and markdown
 * parsers where nothing is parsed, the glob library where no pattern is expanded, Piscina for one capped worker).
 * Our modules and the packages they import are seen by name by running tsc's output (test/helpers/unbundled-main.mjs:
 * the bundle groups the same modules, and the packages but Piscina, into chunks, so that the built bin loads no file of
 * node_modules); threads by running either, each thread's loads recorded by test/helpers/record-imports.mjs (the ES
 * module loader) and test/helpers/record-requires.cjs (CommonJS files).
 */
import { spawnSync } from "node:child_process";
import { appendFile, cp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAIN_THREAD_PARSE_BYTES } from "../src/node/pool/thread-limits.js";
import { bin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await cp(join(repoRoot, "fixtures/datasets/example-act"), join(dir, "example-act"), { recursive: true });
});
afterAll(async () => cleanup());

const recordImports = join(repoRoot, "test/helpers/record-imports.mjs");
const recordRequires = join(repoRoot, "test/helpers/record-requires.cjs");
const unbundled = join(repoRoot, "test/helpers/unbundled-main.mjs");
const dist = `${join(repoRoot, "dist")}/`;

interface Loads {
  run: { code: number; stdout: string; stderr: string };
  /** Our modules the main thread loaded, by path from dist/ (tsc's output), e.g. `node/validate/validate.js`. */
  modules: Set<string>;
  /** Those of them loaded through the ES module loader (the rest, CommonJS files, through `require`). */
  imported: Set<string>;
  /** The packages the main thread loaded. */
  packages: Set<string>;
  /** The packages each worker thread loaded, one set per worker. */
  workers: Set<string>[];
}

let runs = 0;

/** Runs the command line (tsc's output, or the built bin) with both recordings; what each thread loaded. */
async function loads(args: string[], cwd: string, { bundled = false } = {}): Promise<Loads> {
  const record = join(dir, `loads-${runs++}.txt`);
  await rm(record, { force: true });
  const run = await runCommand(
    process.execPath,
    ["--import", recordImports, "--require", recordRequires, bundled ? bin : unbundled, ...args],
    cwd,
    { RECORD_IMPORTS: record, RECORD_REQUIRES: record },
  );
  const modules = new Set<string>();
  const imported = new Set<string>();
  const threads = new Map<string, Set<string>>();
  for (const line of (await readFile(record, "utf8").catch(() => "")).split("\n").filter(Boolean)) {
    const thread = line.slice(0, line.indexOf(" "));
    const where = line.slice(line.indexOf(" ") + 1);
    const path = where.startsWith("file://") ? decodeURIComponent(new URL(where).pathname) : where;
    if (!threads.has(thread)) threads.set(thread, new Set());
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (name !== undefined) threads.get(thread)!.add(name);
    else if (thread === "0" && path.startsWith(dist)) {
      modules.add(path.slice(dist.length));
      if (where.startsWith("file://")) imported.add(path.slice(dist.length));
    }
  }
  return {
    run,
    modules,
    imported,
    packages: threads.get("0") ?? new Set(),
    workers: [...threads].filter(([thread]) => thread !== "0").map(([, packages]) => packages),
  };
}

/** What the program and every command's registration may load: the command line's own modules and constants. */
const START_UP = new Set([
  "core/diff/diff.js",
  "core/errors.js",
  "core/lock/dataset-fields.js",
  "core/lock/manifest-name.js",
  "core/model.js",
  "core/schema/schema.js",
  "core/text.js",
  "formatters/diff-names.js",
  "formatters/format-names.js",
  "node/errors.js",
  "node/files/tooling-paths.js",
  "node/pool/thread-limits.js",
]);
const isStartUp = (module: string) => module.startsWith("cli/") || START_UP.has(module);

/** Packages that only parsing, pattern expansion, several workers, the HTML pages or schema compiling need. */
const HEAVY = ["yaml", "markdown-it", "fast-glob", "piscina", "ajv", "diff", "chalk", "canonicalize"];
const loadedOf = (set: Set<string>, names: readonly string[]) => names.filter((name) => set.has(name));

const tooling = ".tooling/citation-targets";

describe("the program starts with commander and the commands' registrations only", () => {
  for (const args of [["--version"], ["--help"]])
    test(`${args.join(" ")}: no command's own module, no package but commander`, async () => {
      const { run, modules, packages, workers } = await loads(args, repoRoot);
      expect(run.code, run.stderr).toBe(0);
      expect(modules.has("cli/main.js")).toBe(true); // the recording sees our modules
      expect([...modules].filter((module) => !isStartUp(module))).toEqual([]);
      expect([...packages]).toEqual(["commander"]);
      expect(workers).toEqual([]);
    });

  test("validate --help lists the rules: the rule registry, and no more of validate", async () => {
    const { run, modules } = await loads(["validate", "--help"], repoRoot);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("lock-artifact-body");
    expect(modules.has("rules/index.js")).toBe(true);
    expect(modules.has("node/validate/validate.js")).toBe(false);
    expect(modules.has("formatters/index.js")).toBe(false);
  });
});

describe("each command loads its own modules, and no package it does not use", () => {
  test("validate --no-lock: the validator, the rules and the stylish formatter; no parser, glob library or pool", async () => {
    const { run, modules, packages, workers } = await loads(
      ["validate", "--no-lock", `${tooling}/mvfg.jsonl`],
      repoRoot,
    );
    expect(run.code, run.stderr).toBe(0);
    for (const module of ["node/validate/validate.js", "rules/index.js", "formatters/stylish.js"])
      expect(modules.has(module), module).toBe(true);
    expect(
      [...modules].filter((module) =>
        /^node\/(generate|diff|view)\/|^core\/markdown\/(targets|parser|blocks)/.test(module),
      ),
    ).toEqual([]);
    expect(loadedOf(packages, HEAVY)).toEqual(["canonicalize"]); // colour off (NO_COLOR): no chalk
    expect(workers).toEqual([]);
  });

  // lock and update read the config for the legislation host in force (issue 36), whose checker imports the rule ids:
  // the rule registry is theirs too.
  test("lock --check: the lock; no validator, formatter, parser or pool", async () => {
    const { run, modules, packages, workers } = await loads(["lock", "example-act", "--check"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(modules.has("node/dataset/lock.js")).toBe(true);
    expect(
      [...modules].filter((module) =>
        /^node\/validate\/|^core\/markdown\/targets|^formatters\/(?!.*-names)/.test(module),
      ),
    ).toEqual([]);
    expect(loadedOf(packages, HEAVY)).toEqual(["canonicalize"]);
    expect(workers).toEqual([]);
  });

  test("update --check with its cache warm: no parser, glob library, pool or worker", async () => {
    const cache = join(dir, "update-cache.json");
    const args = ["update", "--check", "--cache-location", cache];
    const cold = await runCommand(process.execPath, [bin, ...args], repoRoot);
    expect(cold.code, cold.stderr).toBe(0);
    for (const bundled of [false, true]) {
      const { run, modules, packages, workers } = await loads(args, repoRoot, { bundled });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("mvfg: up to date");
      if (!bundled) {
        expect(modules.has("node/update/update.js")).toBe(true);
        expect([...modules].filter((module) => /^core\/markdown\/(targets|parser)/.test(module))).toEqual([]);
      }
      // Bundled, the packages are in the bundle's chunks: none is loaded from node_modules.
      expect(loadedOf(packages, HEAVY)).toEqual(bundled ? [] : ["canonicalize"]);
      expect(workers).toEqual([]);
    }
  });

  // A dataset under MAIN_THREAD_PARSE_BYTES of markdown is parsed in the main thread: no worker starts for it.
  test("generate --check of a small dataset: parsed in the main thread, no worker", async () => {
    for (const bundled of [false, true]) {
      const { run, modules, packages, workers } = await loads(
        ["generate", `${tooling}/mvfg.lock.json`, "--check", `${tooling}/mvfg.jsonl`],
        repoRoot,
        { bundled },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(workers).toEqual([]);
      if (!bundled) {
        expect(modules.has("node/generate/generate.js")).toBe(true);
        expect(modules.has("core/markdown/parser.js")).toBe(true);
        expect(loadedOf(packages, HEAVY)).toEqual(["yaml", "markdown-it", "canonicalize"]);
      } else expect(modules.has("node/cli-yaml.cjs")).toBe(false); // its front matter is simple: no YAML parser
    }
  });

  // scripts/bundle-cli.js: the bundle requires YAML (dist/node/cli-yaml.cjs) when a front matter first needs it.
  test("generate of a front matter that needs the YAML parser: the bundle loads it then, and says what tsc's output says", async () => {
    const folder = join(dir, "yaml-front");
    await cp(join(repoRoot, "fixtures/datasets/example-act"), folder, { recursive: true });
    const section = join(folder, "part-1/section-1.md");
    await writeFile(section, `---\nnotes: [ "a: b", { c: d } ]\n---\n\n${await readFile(section, "utf8")}`);
    const locked = await runCommand(process.execPath, [bin, "lock", "yaml-front"], dir);
    expect(locked.code, locked.stderr).toBe(0);
    const [bundled, unbundled] = [
      await loads(["generate", "yaml-front/citation-targets.lock.json"], dir, { bundled: true }),
      await loads(["generate", "yaml-front/citation-targets.lock.json"], dir),
    ];
    expect(bundled.run.code, bundled.run.stderr).toBe(0);
    expect(bundled.modules.has("node/cli-yaml.cjs")).toBe(true);
    expect(bundled.run.stdout).toBe(unbundled.run.stdout);
    expect(bundled.run.stdout.length).toBeGreaterThan(0);
  });

  test("generate of a dataset from MAIN_THREAD_PARSE_BYTES: one capped worker without Piscina, the parsers there only", async () => {
    const big = join(dir, "big");
    await cp(join(repoRoot, "fixtures/datasets/example-act"), big, { recursive: true });
    const sections = Array.from({ length: 3000 }, (_, i) => `## ${i + 3} Section\n\n${"Text. ".repeat(12)}\n\n`);
    await appendFile(join(big, "part-1/section-2.md"), sections.join(""));
    expect((await stat(join(big, "part-1/section-2.md"))).size).toBeGreaterThan(MAIN_THREAD_PARSE_BYTES);
    const locked = await runCommand(process.execPath, [bin, "lock", "big"], dir);
    expect(locked.code, locked.stderr).toBe(0);
    const { run, modules, packages, workers } = await loads(["generate", "big/citation-targets.lock.json"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n").length).toBeGreaterThan(3000); // a record a heading, at least
    expect(modules.has("node/generate/generate.js")).toBe(true);
    expect(
      [...modules].filter((module) => /^core\/markdown\/(targets|parser)|^core\/records\/parse-artifact/.test(module)),
    ).toEqual([]);
    expect(loadedOf(packages, HEAVY)).toEqual(["canonicalize"]);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.has("piscina")).toBe(false);
  });

  test("the built command line loads no package from node_modules: they are in the bundle", async () => {
    for (const args of [
      ["--version"],
      ["validate", `${tooling}/mvfg.jsonl`],
      ["lock", "fixtures/datasets/mvfg", "--check"],
      ["diff", `${tooling}/mvfg.jsonl`, `${tooling}/mvfg.jsonl`],
    ]) {
      const { run, packages } = await loads(args, repoRoot, { bundled: true });
      expect(run.code, run.stderr).toBe(0);
      expect([...packages], args.join(" ")).toEqual([]);
    }
  });

  // scripts/bundle-cli.js: what the entry imports statically is in its own chunk, and the small modules most commands
  // share in one chunk, so that a run reads a few files of dist/ rather than dozens (bench/RESULTS.md, "Start-up"). The
  // bundle is CommonJS, and so are the precompiled validators: none of it is loaded through the ES module loader.
  test("the built command line: --version reads the entry's chunks only; lock --check a handful of files", async () => {
    const version = await loads(["--version"], repoRoot, { bundled: true });
    expect(version.run.code, version.run.stderr).toBe(0);
    expect([...version.modules].sort()).toEqual([
      expect.stringMatching(/^node\/cli-main-[\w-]+\.cjs$/),
      expect.stringMatching(/^node\/cli-rolldown-runtime-[\w-]+\.cjs$/),
      "node/cli.cjs",
      "node/code-cache.cjs", // the code cache, required first (src/node/cache/code-cache.ts)
    ]);
    const lock = await loads(["lock", "fixtures/datasets/mvfg", "--check"], repoRoot, { bundled: true });
    expect(lock.run.code, lock.run.stderr).toBe(0);
    expect(lock.modules.size).toBeGreaterThan(3);
    expect(lock.modules.size).toBeLessThanOrEqual(12);
    expect([...lock.modules].filter((module) => !module.endsWith(".cjs"))).toEqual([]);
    for (const { imported } of [version, lock]) expect([...imported]).toEqual([]);
  });

  test("diff of two files: the comparer and the stylish formatter; no page renderer, parser or pool", async () => {
    const { run, modules, packages, workers } = await loads(
      ["diff", `${tooling}/mvfg.jsonl`, `${tooling}/mvfg.jsonl`],
      repoRoot,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(modules.has("node/diff/diff.js")).toBe(true);
    expect(modules.has("formatters/diff-stylish.js")).toBe(true);
    expect([...modules].filter((module) => /^formatters\/(diff-html|markdown-html|diff\.js)/.test(module))).toEqual([]);
    expect(loadedOf(packages, HEAVY)).toEqual(["canonicalize"]); // colour off (NO_COLOR): no chalk
    expect(workers).toEqual([]);
  });
});

describe("Node's own modules that a small run does not need are not loaded", () => {
  /** Node's modules the built bin's main thread loaded (`process.moduleLoadList`, written as it exits). */
  async function builtins(args: string[]): Promise<{ code: number; stderr: string; loaded: Set<string> }> {
    const record = join(dir, `builtins-${runs++}.txt`);
    const preload = `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(record)}, process.moduleLoadList.join("\\n")));`;
    const script = join(dir, `builtins-${runs++}.cjs`);
    await writeFile(script, preload);
    const run = await runCommand(process.execPath, ["--require", script, bin, ...args], repoRoot);
    const loaded = new Set(
      (await readFile(record, "utf8"))
        .split("\n")
        .filter((line) => line.startsWith("NativeModule "))
        .map((line) => line.slice("NativeModule ".length)),
    );
    return { code: run.code, stderr: run.stderr, loaded };
  }

  test("validate and generate --check load neither child_process (git) nor worker_threads; update --check no git", async () => {
    for (const args of [
      ["validate", `${tooling}/mvfg.jsonl`],
      ["generate", `${tooling}/mvfg.lock.json`, "--check", `${tooling}/mvfg.jsonl`],
      ["update", "--check", "--no-cache"], // parses in a capped worker (the heap cap): worker_threads, but no git
    ]) {
      const { code, stderr, loaded } = await builtins(args);
      expect(code, stderr).toBe(0);
      expect(loaded.has("crypto"), args.join(" ")).toBe(true); // the recording sees Node's modules
      // (net is loaded for a standard output that is a pipe, as here; dgram only with child_process)
      const unused = args[0] === "update" ? /^(?:child_process|dgram)$/ : /^(?:child_process|worker_threads|dgram)$/;
      expect(
        [...loaded].filter((name) => unused.test(name)),
        args.join(" "),
      ).toEqual([]);
    }
  });

  test("generate --check of a small dataset loads neither fs/promises nor file streams (their machinery costs ms)", async () => {
    const { code, stderr, loaded } = await builtins([
      "generate",
      `${tooling}/mvfg.lock.json`,
      "--check",
      `${tooling}/mvfg.jsonl`,
    ]);
    expect(code, stderr).toBe(0);
    expect(loaded.has("fs"), "the recording sees Node's modules").toBe(true);
    expect(
      [...loaded].filter((name) =>
        /^(?:fs\/promises|internal\/fs\/(?:promises|streams)|internal\/readline\/)/.test(name),
      ),
    ).toEqual([]);
  });

  test("diff of two files hashes nothing: crypto is not loaded (5 to 8 ms); lock --check hashes, and loads it", async () => {
    const diff = await builtins(["diff", `${tooling}/mvfg.jsonl`, `${tooling}/mvfg.jsonl`]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.loaded.has("crypto")).toBe(false);
    expect(diff.loaded.has("fs"), "the recording sees Node's modules").toBe(true);
    const lock = await builtins(["lock", "fixtures/datasets/mvfg", "--check"]);
    expect(lock.code, lock.stderr).toBe(0);
    expect(lock.loaded.has("crypto")).toBe(true);
  });

  test("the bin makes a standard stream only when it is used: not stdin unless read, not stdout for a run that writes to stderr", async () => {
    // A preload that records which of process.stdin, stdout and stderr the run asked for (each a getter that makes the
    // stream: a pipe's, here, with Node's net module for it).
    const record = join(dir, `streams-${runs++}.txt`);
    const script = join(dir, `streams-${runs++}.cjs`);
    await writeFile(
      script,
      `const made = new Set();
for (const name of ["stdin", "stdout", "stderr"]) {
  const { get } = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get() { made.add(name); return get.call(process); } });
}
process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(record)}, [...made].sort().join(" ")));`,
    );
    const made = async (args: string[]) => {
      const run = await runCommand(process.execPath, ["--require", script, bin, ...args], repoRoot);
      return { ...run, made: await readFile(record, "utf8") };
    };
    const check = await made(["generate", `${tooling}/mvfg.lock.json`, "--check", `${tooling}/mvfg.jsonl`]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain("is up to date");
    expect(check.made).toBe("stderr");
    const validate = await made(["validate", `${tooling}/mvfg.jsonl`]);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain("no problems");
    expect(validate.made).toBe("stdout");
  });

  test("the built bin reads standard input when told to (validate -)", async () => {
    const jsonl = await readFile(join(repoRoot, tooling, "mvfg.jsonl"));
    const run = spawnSync(process.execPath, [bin, "validate", "-", "--stdin-filename", `${tooling}/mvfg.jsonl`], {
      cwd: repoRoot,
      input: jsonl,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("1 file, 21 records: no problems");
  });

  test("diff --against HEAD loads child_process, for git", async () => {
    const { code, stderr, loaded } = await builtins(["diff", "--against", "HEAD", `${tooling}/mvfg.jsonl`]);
    expect(code, stderr).toBe(0);
    expect(loaded.has("child_process")).toBe(true);
  });
});
