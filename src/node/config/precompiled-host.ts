/**
 * The record validator of any legislation host, from the one precompiled for the default host (scripts/build-validator.js)
 * rather than compiled by Ajv at run time (loading Ajv and compiling took about 0.6 s a thread: bench/RESULTS.md, "A
 * publisher's repository"). The record schema of a host differs from the default host's only where the host is
 * written (docs/spec.md, section 8: `sourceTextUrl`'s pattern and the descriptions); so does the module Ajv generates,
 * which writes the host as it is and as the pattern escapes it, each inside up to three levels of JSON string
 * escaping. Each of those forms of the default host is replaced by the same form of the other host. The result is used
 * only when the schema it embeds is exactly the one built for that host, as the precompiled module itself is
 * (precompiled.ts); a test holds the module made so to the one Ajv generates for other hosts.
 */
import { promises as fs } from "node:fs";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { DEFAULT_LEGISLATION_HOST } from "../../core/schema/schema.js";
import { escapeRegExp } from "../../core/text.js";
import { codeFile } from "../code-root.js";
import { precompiledModule } from "./precompiled.js";
import { runPrecompiledText } from "./precompiled-text.js";

/** The forms a host is written in by the generated module: as it is and as a pattern escapes it, JSON-escaped 0 to 3 times. */
function hostForms(host: string): string[] {
  const forms: string[] = [];
  for (const base of [host, escapeRegExp(host)]) {
    let form = base;
    for (let level = 0; level < 4; level++) {
      forms.push(form);
      form = JSON.stringify(form).slice(1, -1);
    }
  }
  return forms;
}

/** The text of the default host's generated module with `host` written wherever the default host is. */
export function moduleTextForHost(text: string, host: string): string {
  const from = hostForms(DEFAULT_LEGISLATION_HOST);
  const to = hostForms(host);
  const replacements = new Map<string, string>();
  from.forEach((form, i) => {
    if (!replacements.has(form)) replacements.set(form, to[i]!);
  });
  // The longest first, in one pass: no form replaced is looked at again.
  const alternatives = [...replacements.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return text.replace(new RegExp(alternatives.join("|"), "g"), (found) => replacements.get(found)!);
}

/** The validators made in this thread, by host. */
const made = new Map<string, Promise<ValidateFunction | undefined>>();

/**
 * The record validator of `host` made from the precompiled module of the default host, when that module was built and
 * the schema it then embeds is exactly `schema`; else undefined, and the caller compiles.
 */
export function precompiledForHost(host: string, schema: unknown): Promise<ValidateFunction | undefined> {
  let validator = made.get(host);
  if (validator === undefined) {
    validator = (async () => {
      try {
        const text = moduleTextForHost(await fs.readFile(codeFile(precompiledModule("record")), "utf8"), host);
        const module = runPrecompiledText(text);
        return module.schemaText === JSON.stringify(schema) ? module.validate : undefined;
      } catch {
        return undefined;
      }
    })();
    made.set(host, validator);
  }
  return validator;
}
