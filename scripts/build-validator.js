#!/usr/bin/env node
// Precompiles the bundled schemas (records for the default legislation host, lock manifests, config
// files) into standalone Ajv validators, so that the CLI starts without importing Ajv or compiling: CommonJS modules in
// ASCII (src/node/config/precompiled-text.ts, which writes their text).
// Run by `npm run build` after tsc. Each module embeds the schema text it came from; at run time a
// module is used only when that text equals the schema the code builds (src/node/config/precompiled.ts).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { buildManifestSchema } from "../dist/core/lock/manifest.js";
import { buildRecordSchema } from "../dist/core/schema/schema.js";
import { AJV_OPTIONS, MANIFEST_AJV_OPTIONS } from "../dist/core/schema/ajv-options.js";
import { buildConfigSchema } from "../dist/node/config/config.js";
import { precompiledModuleText, runPrecompiledText } from "../dist/node/config/precompiled-text.js";

const standaloneCode = standaloneModule.default ?? standaloneModule;
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const targets = [
  ["record", buildRecordSchema(), AJV_OPTIONS],
  ["manifest", buildManifestSchema(), MANIFEST_AJV_OPTIONS],
  ["config", buildConfigSchema(), MANIFEST_AJV_OPTIONS],
];
for (const [name, schema, options] of targets) {
  const ajv = new Ajv2020({ strict: true, ...options, code: { source: true, esm: false } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  if (/\brequire\(/.test(code))
    throw new Error(
      `the ${name} validator needs a runtime require(): keep its schema free of keywords that need one (minLength, format)`,
    );
  const out = join(root, `dist/generated/${name}-validator.cjs`);
  mkdirSync(dirname(out), { recursive: true });
  const text = precompiledModuleText(schema, code);
  writeFileSync(out, text);
  rmSync(join(root, `dist/generated/${name}-validator.js`), { force: true }); // an earlier build's, an ES module
  if (runPrecompiledText(text).schemaText !== JSON.stringify(schema))
    throw new Error(`the ${name} validator's module does not give back the schema text it was built from`);
}
