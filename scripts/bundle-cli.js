#!/usr/bin/env node
// Bundles the command line (dist/cli/main.js and the modules it imports) into dist/node/cli.js,
// with one chunk per group of modules it loads only when needed (generate, lock, diff, ...). Run by
// `npm run build` after tsc: a start-up loads about 15 files instead of about 100, which is 40 to 50 ms
// of module loading (bench/RESULTS.md, start-up). The bundle and its chunks sit in dist/node/, beside
// the worker scripts, so that every path a module takes relative to itself (workers, the precompiled
// validators in dist/generated/, package.json) is the same bundled or not. The packages the command line imports are
// bundled too (commander, chalk, yaml, markdown-it, ...: yaml alone is 229 files, commander 7 CommonJS ones), each
// into the chunk of the modules that import it, so that the ES module loader resolves and reads a few files rather
// than hundreds; Piscina stays a package (it starts its workers from a file of its own), and so does everything the
// library (dist/index.js, not bundled) imports. The worker entry (dist/node/pool/worker.js, which the pool starts) is
// bundled too, over tsc's output, in a build of its own (chunks `worker-*.js`): a capped worker that parses a
// dataset loads a few chunks before its first task instead of about 40 modules (bench/RESULTS.md, start-up). Its own
// build, because it awaits at its top level, and a build with such a module merges no chunks: the command line's build
// then has about 85 chunks instead of about 115, and a command loads fewer files. Only worker.ts's own code is in that
// file (everything it imports is loaded on demand, so in a chunk of dist/node/): nothing in it takes a path from its
// own place, which the build checks. Last, the code identities of the caches (src/node/cache/built-identities.ts) are
// worked out from tsc's output, the modules just bundled, and written to dist/node/cache/code-identities.json.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, "dist/node");
for (const name of readdirSync(out))
  if (name === "cli.js" || name === "prestart.js" || name.startsWith("cli-") || name.startsWith("worker-"))
    rmSync(join(out, name)); // an earlier build's
const identities = join(out, "cache/code-identities.json");
rmSync(identities, { force: true });

const builds = [
  {
    input: { cli: join(root, "dist/cli/main.js") },
    chunks: "cli",
  },
  { input: { "pool/worker": join(root, "dist/node/pool/worker.js") }, chunks: "worker" },
];
for (const { input, chunks } of builds)
  await build({
    input,
    platform: "node",
    // Node's own modules and Piscina stay imports; every other package is bundled.
    external: (id) => id === "piscina" || id.startsWith("node:") || builtinModules.includes(id),
    logLevel: "warn",
    // Not `charset: "ascii"` (nor doc comments left out): the pages embed functions' source (the citation reader of the
    // view page's search), whose text would change, for a few ms of start-up (bench/RESULTS.md, start-up).
    output: { dir: out, format: "esm", entryFileNames: "[name].js", chunkFileNames: `${chunks}-[name]-[hash].js` },
  });

const worker = readFileSync(join(out, "pool/worker.js"), "utf8");
if (worker.includes("import.meta")) {
  console.error("bundle-cli: dist/node/pool/worker.js holds code that takes a path from its own place (import.meta)");
  process.exit(1);
}

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
