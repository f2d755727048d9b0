#!/usr/bin/env node
// Bundles the command line (dist/cli/main.js and the modules it imports) into dist/node/cli.js,
// with one chunk per group of modules it loads only when needed (generate, lock, diff, ...). Run by
// `npm run build` after tsc: a start-up loads about 15 files instead of about 100, which is 40 to 50 ms
// of module loading (bench/RESULTS.md, start-up). The bundle and its chunks sit in dist/node/, beside
// the worker scripts, so that every path a module takes relative to itself (workers, the precompiled
// validators in dist/generated/, package.json) is the same bundled or not. Packages stay external,
// and the library (dist/index.js) and the workers are not bundled.
import { readdirSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, "dist/node");
for (const name of readdirSync(out)) if (name === "cli.js" || name.startsWith("cli-")) rmSync(join(out, name)); // chunks of an earlier build

await build({
  input: { cli: join(root, "dist/cli/main.js"), worker: join(root, "dist/node/worker.js") },
  platform: "node",
  external: (id) => !id.startsWith(".") && !isAbsolute(id),
  logLevel: "warn",
  output: { dir: out, format: "esm", entryFileNames: "[name].js", chunkFileNames: "cli-[name]-[hash].js" },
});
