/**
 * The caches' code identity (src/node/cache/code-identity.ts; docs/spec.md, "Worker threads and the cache"): read from
 * the import graph of the modules a cache serves, so that a module added to that graph, moved or changed gives another
 * identity without a list of modules kept by hand, and a module outside it does not.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { codeGraph, codeIdentity, importsOf } from "../src/node/cache/code-identity.js";
import { UPDATE_CACHE_CODE } from "../src/node/cache/update-cache.js";
import { VALIDATE_CACHE_CODE } from "../src/node/cache/validate-cache.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
let code: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  code = join(dir, "dist"); // a built package: dist/ beside its package.json
  await mkdir(join(code, "node"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "fake", version: "1.0.0" }));
  await writeFile(join(code, "node", "entry.js"), 'import { b } from "./b.js";\nexport const a = b;\n');
  await writeFile(join(code, "node", "b.js"), "export const b = 1;\n");
  await writeFile(join(code, "node", "c.js"), "export const c = 1;\n");
});
afterEach(() => cleanup());

/** A fresh identity (each call is worked out once per process for the same roots and folder: the folder is renamed). */
let round = 0;
async function identityNow(roots = ["node/entry"]): Promise<string> {
  const fresh = join(dir, `dist${++round}`);
  await rename(code, fresh);
  code = fresh;
  return codeIdentity(roots, code);
}

describe("code identity", () => {
  test("reads every kind of import a module's text has, and no import of another kind", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export { c } from "./c.js";',
      'export * from "./d.js";',
      'import "./e.js";',
      'const f = await import("./f.js");',
      'import {\n  g,\n  h,\n} from "pkg/sub.js";',
      "const computed = await import(name);",
    ].join("\n");
    expect(importsOf(text)).toEqual(["./a.js", "../b.js", "./c.js", "./d.js", "./e.js", "./f.js", "pkg/sub.js"]);
  });

  test("an import added to a covered module changes the identity; a module no covered module imports does not", async () => {
    const before = await identityNow();
    expect(codeGraph(["node/entry"], code).modules).toEqual(["node/b.js", "node/entry.js"]);
    await writeFile(join(code, "node", "c.js"), "export const c = 2;\n"); // not imported: not covered
    expect(await identityNow()).toBe(before);
    await writeFile(join(code, "node", "b.js"), 'import "./c.js";\nexport const b = 1;\n'); // b now imports c
    const imported = await identityNow();
    expect(imported).not.toBe(before);
    expect(codeGraph(["node/entry"], code).modules).toEqual(["node/b.js", "node/c.js", "node/entry.js"]);
    await writeFile(join(code, "node", "c.js"), "export const c = 3;\n"); // now covered
    expect(await identityNow()).not.toBe(imported);
  });

  test("a module moved into a folder is still covered, under its new path", async () => {
    await mkdir(join(code, "node", "folder"));
    await rename(join(code, "node", "b.js"), join(code, "node", "folder", "b.js"));
    await writeFile(join(code, "node", "entry.js"), 'import { b } from "./folder/b.js";\nexport const a = b;\n');
    expect(codeGraph(["node/entry"], code).modules).toEqual(["node/entry.js", "node/folder/b.js"]);
    const moved = await identityNow();
    await writeFile(join(code, "node", "folder", "b.js"), "export const b = 2;\n");
    expect(await identityNow()).not.toBe(moved);
  });

  test("the package's version and the versions of the packages the code imports are part of it", async () => {
    await mkdir(join(dir, "node_modules", "pkg"), { recursive: true });
    await writeFile(join(dir, "node_modules", "pkg", "package.json"), JSON.stringify({ version: "1.0.0" }));
    await writeFile(
      join(code, "node", "b.js"),
      'import x from "pkg/sub.js";\nimport { readFileSync } from "node:fs";\n',
    );
    expect(codeGraph(["node/entry"], code).packages).toEqual(["pkg"]);
    const first = await identityNow();
    await writeFile(join(dir, "node_modules", "pkg", "package.json"), JSON.stringify({ version: "1.0.1" }));
    const upgraded = await identityNow();
    expect(upgraded).not.toBe(first);
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "fake", version: "1.1.0" }));
    expect(await identityNow()).not.toBe(upgraded);
  });

  test("a root that is not there is named, so that its coming changes the identity", async () => {
    const without = await identityNow(["node/entry", "generated/v.js"]);
    await mkdir(join(code, "generated"));
    await writeFile(join(code, "generated", "v.js"), "export const v = 1;\n");
    expect(await identityNow(["node/entry", "generated/v.js"])).not.toBe(without);
  });

  test("the update cache's code reaches the generator and the markdown parser; validate's, the rules, the engine and the lock-side checks", () => {
    const update = codeGraph(UPDATE_CACHE_CODE);
    expect(update.modules).toEqual(
      expect.arrayContaining([
        "node/update/update-dataset.ts",
        "node/generate/generated-lines.ts",
        "node/generate/generate-pool.ts",
        "core/records/generate.ts",
        "core/records/record-line.ts",
        "core/markdown/targets.ts",
        "core/address/designation.ts",
        "node/cache/update-cache.ts",
      ]),
    );
    expect(update.packages).toEqual(expect.arrayContaining(["markdown-it", "yaml"]));
    const validate = codeGraph(VALIDATE_CACHE_CODE);
    expect(validate.modules).toEqual(
      expect.arrayContaining([
        "node/validate/file-validator.ts",
        "node/validate/validate-lock.ts",
        "node/records/generated-records.ts", // imported with import(): lock-generated's derivation
        "node/dataset/manifest-io.ts",
        "node/files/fingerprints.ts",
        "node/cache/validate-cache.ts",
        "engine/check-file.ts",
        "rules/index.ts",
        "rules/lock-generated.ts",
        "core/records/generate.ts",
        "generated/record-validator.cjs", // not built in src/: named all the same
      ]),
    );
    expect(validate.packages).toEqual(expect.arrayContaining(["ajv", "canonicalize", "fast-glob"]));
    // Commands' own modules are not what the caches serve.
    for (const graph of [update, validate])
      expect(
        graph.modules.filter((m) => /^node\/(validate\/validate|generate\/generate|diff\/diff)\.ts$/.test(m)),
      ).toEqual([]);
  });
});
