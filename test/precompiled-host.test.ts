/**
 * The record validator of another legislation host, made from the module precompiled for the default host
 * (src/node/config/precompiled-host.ts): its text must be exactly the module Ajv generates for that host, as
 * scripts/build-validator.js writes one, and it must report what a runtime compile reports.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, test } from "vitest";
import { AJV_OPTIONS } from "../src/core/schema/ajv-options.js";
import { buildRecordSchema } from "../src/core/schema/schema.js";
import { recordCheckFrom } from "../src/core/schema/schema-issues.js";
import { compileRecordSchema } from "../src/core/schema/schema-validator.js";
import { moduleTextForHost } from "../src/node/config/precompiled-host.js";
import { precompiledModuleText, runPrecompiledText } from "../src/node/config/precompiled-text.js";
import { repoRoot } from "./helpers/records.js";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: Ajv2020,
  validate: unknown,
) => string;

/** The module scripts/build-validator.js writes for a record schema. */
function builtModuleText(schema: Record<string, unknown>): string {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: false } }); // AJV_OPTIONS say strict, as the build does
  return precompiledModuleText(schema, standaloneCode(ajv, ajv.compile(schema)));
}

// Built by `npm run build`: the module of the default host.
const defaultModule = readFileSync(`${repoRoot}dist/generated/record-validator.cjs`, "utf8");
const HOSTS = ["www.gesetze-im-internet.de", "fedlex.admin.ch:8443", "localhost", "a.b-c.example"];

describe("the record validator of another host, from the default host's", () => {
  test("the default host's module is the one the build writes", () => {
    expect(defaultModule).toBe(builtModuleText(buildRecordSchema()));
  });

  test.each(HOSTS)("its text is the module Ajv generates for %s", (host) => {
    expect(moduleTextForHost(defaultModule, host)).toBe(builtModuleText(buildRecordSchema(host)));
  });

  test("it reports what a runtime compile reports", () => {
    const host = "www.gesetze-im-internet.de";
    const text = moduleTextForHost(defaultModule, host);
    const made = runPrecompiledText(text);
    expect(made.schemaText).toBe(JSON.stringify(buildRecordSchema(host)));
    const check = recordCheckFrom(made.validate);
    const runtime = compileRecordSchema(buildRecordSchema(host));
    const records: unknown[] = [
      {},
      { targetKind: "markdown-artifact", sourceTextUrl: "https://www.gesetze-im-internet.de/bgb/" },
      { targetKind: "markdown-artifact", sourceTextUrl: "https://www.legislation.gov.au/x" },
      { targetKind: "structural-container", sourceTextUrl: "https://www.gesetze-im-internet.de/" },
    ];
    for (const record of records) expect(check(record)).toEqual(runtime(record));
  });
});
