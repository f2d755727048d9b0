#!/usr/bin/env node
// Bundles the command line (dist/cli/main.js and the modules it imports) into dist/node/cli.cjs (CommonJS: below, builds),
// with one chunk per group of modules it loads only when needed (generate, lock, diff, ...). Run by
// `npm run build` after tsc: a start-up loads about 15 files instead of about 100, which is 40 to 50 ms
// of module loading (bench/RESULTS.md, start-up). The bundle and its chunks sit in dist/node/, beside
// the worker scripts, so that every path a module takes relative to itself (workers, the precompiled
// validators in dist/generated/, package.json) is the same bundled or not. The packages the command line imports are
// bundled too (commander, chalk, yaml, markdown-it, ...: yaml alone is 229 files, commander 7 CommonJS ones), each
// into the chunk of the modules that import it, so that Node resolves and reads a few files rather
// than hundreds; Piscina stays a package (it starts its workers from a file of its own), and so does everything the
// library (dist/index.js, not bundled) imports. The worker entry (dist/node/pool/worker.js, which the pool starts) is
// bundled too, over tsc's output, in a build of its own (chunks `worker-*.js`): a capped worker that parses a
// dataset loads a few chunks before its first task instead of about 40 modules (bench/RESULTS.md, start-up). Its own
// build, because it awaits at its top level, and a build with such a module merges no chunks: the command line's build
// then has about 85 chunks instead of about 115, and a command loads fewer files. Only worker.ts's own code is in that
// file (everything it imports is loaded on demand, so in a chunk of dist/node/): nothing in it takes a path from its
// own place, which the build checks. Last, the code identities of the caches (src/node/cache/built-identities.ts) are
// worked out from tsc's output, the modules just bundled, and written to dist/node/cache/code-identities.json.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";
import { inlineClassFields } from "./inline-class-fields.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, "dist/node");
for (const name of readdirSync(out))
  if (/^cli\.c?js$/.test(name) || name === "prestart.js" || name.startsWith("cli-") || name.startsWith("worker-"))
    rmSync(join(out, name)); // an earlier build's
const identities = join(out, "cache/code-identities.json");
rmSync(identities, { force: true });
// The V8 code cache of an earlier build's files (src/node/cache/code-cache.ts): its chunks' names go with this build.
rmSync(join(root, "dist/.code-cache"), { recursive: true, force: true });

/**
 * YAML (the `yaml` package, some 200 KB) is compiled and run only when a front matter needs it (most are read without
 * it: src/core/markdown/simple-yaml.ts): the command line's code takes it from a module of getters that requires
 * `dist/node/cli-yaml.cjs` (the package as an entry of its own) on the first read of one of its exports. That is some
 * 10 ms of `generate --check` on a small dataset (bench/RESULTS.md, start-up).
 */
const LAZY_YAML = "\0lazy-yaml";
const YAML_ENTRY = "./cli-yaml.cjs";
const yamlNames = Object.keys(createRequire(import.meta.url)("yaml"));
const lazyYamlPlugin = {
  name: "lazy-yaml",
  resolveId(source, importer) {
    if (source === YAML_ENTRY) return { id: source, external: true };
    return source === "yaml" && importer !== undefined && !/[\\/]node_modules[\\/]/.test(importer) ? LAZY_YAML : null;
  },
  load(id) {
    if (id !== LAZY_YAML) return null;
    const getters = yamlNames.map((name) => `${name}: { enumerable: true, get: () => yaml().${name} }`);
    return [
      "let loaded;",
      `const yaml = () => (loaded ??= require(${JSON.stringify(YAML_ENTRY)}));`,
      `Object.defineProperties(module.exports, { ${getters.join(", ")} });`,
    ].join("\n");
  },
};

/**
 * Commander requires `node:child_process` as it loads, for the executable subcommands (`git-style` commands run as
 * processes of their own), which this command line has none of: some 2.5 ms of every start-up (with `net` and
 * `dgram`: bench/RESULTS.md, start-up). The bundle's copy of commander takes it on its first use instead; the build
 * fails if commander's code no longer reads as expected.
 */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyCommanderChildProcessPlugin = {
  name: "lazy-commander-child-process",
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    if (code.split(COMMANDER_CHILD_PROCESS).length !== 2 || code.split("childProcess.").length !== 4)
      throw new Error(`bundle-cli: ${id} should require node:child_process once, and use it as childProcess.spawn`);
    return code.replace(
      COMMANDER_CHILD_PROCESS,
      () => "const childProcess = { get spawn() { return require('node:child_process').spawn; } };",
    );
  },
};

/**
 * markdown-it's classes make their fields through Babel's `_defineProperty` helper (its package is built so): a tenth of
 * the CPU of `generate` went to the 8 calls of each token. The bundle's copy writes each as the assignment it equals
 * (scripts/inline-class-fields.js, which says why they are equal; test/inline-class-fields.test.ts); the build fails if
 * markdown-it's code no longer reads as expected, so that a new version is looked at.
 */
const markdownItFieldsPlugin = {
  name: "markdown-it-fields",
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]markdown-it[\\/]dist[\\/]markdown-it\.(mjs|cjs\.js)$/.test(id)) return null;
    const { code: inlined, replaced } = inlineClassFields(code);
    if (replaced < 40)
      throw new Error(`bundle-cli: ${id} should make its class fields with _defineProperty (${replaced})`);
    return inlined;
  },
};

/**
 * The command line is CommonJS (`dist/node/cli.cjs` and its chunks `cli-*.cjs`, required by bin/citation-targets.js,
 * CommonJS too: bin/package.json): a run then starts without Node's ES module loader (its own modules, and each file
 * read, linked and evaluated in turns of the event loop), some 10 to 20 ms of every start-up (bench/RESULTS.md,
 * start-up). Its code stays strict, as the modules it was made of are. What it loads by a computed path (the
 * precompiled validators) or as a package (Piscina) is imported as before. The worker is an ES module: it awaits at
 * its top level.
 */
const builds = [
  {
    input: {
      cli: join(root, "dist/cli/main.js"),
      "cli-yaml": "yaml",
      "code-cache": join(root, "dist/node/cache/code-cache.js"),
    },
    chunks: "cli",
    format: "cjs",
    extension: "cjs",
    plugins: [lazyYamlPlugin, lazyCommanderChildProcessPlugin],
  },
  {
    input: { "pool/worker": join(root, "dist/node/pool/worker.js") },
    chunks: "worker",
    format: "esm",
    extension: "js",
  },
];
/**
 * The modules the entry imports statically, directly or through others: every run loads them, whatever its command, so
 * they go into the entry's own chunk rather than into chunks shared with the commands' lazily loaded modules (which
 * would make `--version` read a dozen files: bench/RESULTS.md, start-up).
 */
function staticClosure(entry) {
  const closure = new Set();
  return {
    closure,
    plugin: {
      name: "static-closure",
      buildEnd() {
        const pending = [entry];
        while (pending.length > 0) {
          const id = pending.pop();
          if (id === undefined || closure.has(id)) continue;
          closure.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      },
    },
  };
}

/**
 * The bundle's code is ASCII (`charset: "ascii"`: characters beyond it escaped in strings and patterns, their values the
 * same; comments left out but the legal and annotation ones): Node decodes an ASCII file on its fast path and V8 scans
 * one byte a character, which a single `…` in a comment defeats (bench/RESULTS.md, start-up). One text would change
 * with it: the view page carries the citation reader's source text (src/core/resolve/citation-reader-source.ts), which
 * escapes and lost comments would alter. So the reader is first built alone as the bundle built it before (UTF-8,
 * doc comments kept), its function's text taken, and that text put into the bundle as a string in place of the
 * function's own: the page's bytes stay those of a UTF-8 bundle.
 */
const READER = join(root, "dist/core/resolve/citation-reader.js");
const READER_SOURCE = join(root, "dist/core/resolve/citation-reader-source.js");
const READER_EXPRESSION = "createCitationReader.toString()";
async function readerText() {
  const { output } = await build({
    input: READER,
    platform: "node",
    logLevel: "warn",
    write: false,
    output: { format: "esm" },
  });
  if (output.length !== 1) throw new Error("bundle-cli: the citation reader built alone should be one chunk");
  const module = await import(`data:text/javascript;base64,${Buffer.from(output[0].code).toString("base64")}`);
  return module.createCitationReader.toString();
}
const readerSource = await readerText();
const readerPlugin = {
  name: "citation-reader-source",
  transform(code, id) {
    if (id !== READER_SOURCE) return null;
    if (code.split(READER_EXPRESSION).length !== 2)
      throw new Error(`bundle-cli: ${READER_SOURCE} should take the reader's text once, as ${READER_EXPRESSION}`);
    return code.replace(READER_EXPRESSION, () => JSON.stringify(readerSource));
  },
};

/**
 * The modules that most commands use (the core but markdown, records and diff; the node layer's files, writes, caches,
 * errors, datasets, git, config, pool and the record reader; the rules, the engine, the plain-text formatters), and
 * what they import, in one chunk of their own: without it rolldown makes a chunk for each set of lazily loaded modules
 * that shares them, and a command read 34 (`lock`) to 48 (`update --check`) files of dist/; with it, 5 to 12, for some
 * 100 KB more of code to compile, which costs less (bench/RESULTS.md, start-up). The markdown parser and YAML stay out:
 * only generation uses them. Two sets are kept out of it, so that the commands that do not run them do not compile
 * them (40 to 80 KB: bench/RESULTS.md, start-up): what only validate runs (VALIDATE, a chunk of its own), and what a
 * command loads only for an option or a case (OCCASIONAL: a job summary, staged files, aliases; left to rolldown).
 */
const SHARED = new RegExp(
  [
    String.raw`[\\/]dist[\\/](?:core[\\/][a-z0-9-]+\.js|core[\\/](?:json|lock|report|address)[\\/]`,
    String.raw`|node[\\/](?:files|writes|errors|cache|dataset|git|config|pool)[\\/]|node[\\/]records[\\/]record-stream\.js`,
    String.raw`|node[\\/][a-z-]+\.js|rules[\\/]|engine[\\/]`,
    String.raw`|formatters[\\/](?:types|format-names|diff-names|diff-common|diff-stylish)\.js)`,
  ].join(""),
);
const VALIDATE = /[\\/]dist[\\/](?:node[\\/]validate[\\/]|formatters[\\/](?:stylish|sarif)\.js)/;
// The code cache is required before the bundle, to cache it: a file of its own (dist/node/code-cache.cjs), in no chunk.
const CODE_CACHE = /[\\/]dist[\\/]node[\\/]cache[\\/]code-cache\.js$/;
const OCCASIONAL =
  /[\\/]dist[\\/]node[\\/](?:writes[\\/]step-summary|git[\\/]staged(?:-index)?|config[\\/](?:library-config|precompiled-text)|dataset[\\/]dataset-aliases)\.js$/;

for (const { input, chunks, format, extension, plugins = [] } of builds) {
  const entry = Object.values(input)[0];
  const { closure, plugin } = staticClosure(entry);
  await build({
    input,
    platform: "node",
    plugins: [plugin, readerPlugin, markdownItFieldsPlugin, ...plugins],
    // Node's own modules and Piscina stay imports; every other package is bundled.
    external: (id) => id === "piscina" || id.startsWith("node:") || builtinModules.includes(id),
    logLevel: "warn",
    output: {
      dir: out,
      charset: "ascii", // and no comments but legal and annotation ones: above, READER
      comments: { legal: true, annotation: true, jsdoc: false },
      format,
      // CommonJS: a package loaded on demand (Piscina) is required, not imported: the code cache compiles the bundle
      // with vm.Script (src/node/cache/code-cache.ts), whose code cannot call import() without an experimental option.
      ...(format === "cjs"
        ? {
            strict: true,
            dynamicImportInCjs: false,
            // White space out (no name changed, no code rewritten): a run reads, and holds as strings, some 15 % fewer
            // bytes of code, memory new to the process, which costs 10 to 20 us a page on this VM (bench/RESULTS.md,
            // start-up). Not names too: the large chunks would then fall under V8's 128 KB for an object of the young
            // generation, and their source strings, copied by its scavenges, cost a third scavenge of every run.
            minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
          }
        : {}),
      entryFileNames: `[name].${extension}`,
      chunkFileNames: `${chunks}-[name]-[hash].${extension}`,
      ...(chunks === "cli"
        ? {
            codeSplitting: {
              groups: [
                { name: "main", test: (id) => closure.has(id), priority: 3 },
                {
                  name: "shared",
                  test: (id) => SHARED.test(id) && !OCCASIONAL.test(id) && !CODE_CACHE.test(id),
                  priority: 2,
                },
                { name: "validate", test: (id) => VALIDATE.test(id), priority: 1 },
              ],
            },
          }
        : {}),
    },
  });
}

for (const name of [
  ...readdirSync(out).filter((name) => /^(?:cli|worker)(?:-.*)?\.c?js$/.test(name)),
  "pool/worker.js",
])
  if (!readFileSync(join(out, name)).every((byte) => byte < 0x80)) {
    console.error(`bundle-cli: dist/node/${name} is not ASCII (above, READER)`);
    process.exit(1);
  }

for (const name of readdirSync(out).filter((name) => /^(?:cli|code-cache)(?:-.*)?\.cjs$/.test(name)))
  if (/\bimport\(/.test(readFileSync(join(out, name), "utf8"))) {
    console.error(`bundle-cli: dist/node/${name} calls import(), which code compiled from the code cache cannot`);
    process.exit(1);
  }

const worker = readFileSync(join(out, "pool/worker.js"), "utf8");
if (worker.includes("import.meta")) {
  console.error("bundle-cli: dist/node/pool/worker.js holds code that takes a path from its own place (import.meta)");
  process.exit(1);
}

// The files the code cache may cache (src/node/cache/code-cache.ts), each with its SHA-256: a cache of another build's file of
// the same name is then never used for this one's.
const cached = [
  ...readdirSync(out)
    .filter((name) => name.endsWith(".cjs"))
    .map((name) => `node/${name}`),
  ...readdirSync(join(root, "dist/generated"))
    .filter((name) => name.endsWith(".cjs"))
    .map((name) => `generated/${name}`),
].sort();
const { DIGESTS_FILE } = await import(pathToFileURL(join(root, "dist/node/cache/code-cache.js")).href);
writeFileSync(
  join(root, "dist", DIGESTS_FILE),
  `${JSON.stringify(
    Object.fromEntries(
      cached.map((path) => [
        path,
        createHash("sha256")
          .update(readFileSync(join(root, "dist", path)))
          .digest("hex"),
      ]),
    ),
    null,
    2,
  )}\n`,
);

const built = async (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { computeCodeIdentity } = await built("node/cache/code-identity.js");
const { BUILT_IDENTITIES_FILE, identityKey } = await built("node/cache/built-identities.js");
const { UPDATE_CACHE_CODE } = await built("node/cache/update-cache.js");
const { VALIDATE_CACHE_CODE } = await built("node/cache/validate-cache.js");
const { RESOLVE_CACHE_CODE } = await built("node/resolve/resolve.js");
const code = join(root, "dist");
const table = Object.fromEntries(
  [UPDATE_CACHE_CODE, VALIDATE_CACHE_CODE, RESOLVE_CACHE_CODE].map((roots) => [
    identityKey(roots),
    computeCodeIdentity(roots, code),
  ]),
);
if (join(code, BUILT_IDENTITIES_FILE) !== identities) throw new Error("bundle-cli: the identities' file moved");
writeFileSync(identities, `${JSON.stringify(table, null, 2)}\n`);
