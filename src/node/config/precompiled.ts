import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { codePath } from "../code-root.js";
import type { PrecompiledModule } from "./precompiled-text.js";

/** The precompiled modules are CommonJS (precompiled-text.ts): required, not imported. */
const requireHere = createRequire(import.meta.url);

/** The schemas `npm run build` precompiles to standalone validators (scripts/build-validator.js). */
export const PRECOMPILED_NAMES = ["record", "manifest", "config"] as const;
export type PrecompiledName = (typeof PRECOMPILED_NAMES)[number];

/** The module of a precompiled validator, by its path from the code's folder (dist/generated/, as built). */
export function precompiledModule(name: PrecompiledName): string {
  return `generated/${name}-validator.cjs`;
}

/**
 * The precompiled validator of `name`, when it was built and built from exactly `schema` (each module
 * embeds the schema text it came from); else undefined, and the caller compiles at run time. Loading
 * it needs neither Ajv nor a compile, which is most of the start-up time saved.
 */
export async function loadPrecompiled(name: PrecompiledName, schema: unknown): Promise<ValidateFunction | undefined> {
  try {
    const module = requireHere(codePath(precompiledModule(name))) as PrecompiledModule;
    return module.schemaText === JSON.stringify(schema) ? module.validate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The validator of a bundled JSON-file schema (lock manifest, config): precompiled when built from this very schema,
 * else compiled now.
 */
export async function jsonFileValidator(
  name: "manifest" | "config",
  schema: Record<string, unknown>,
): Promise<ValidateFunction> {
  const precompiled = await loadPrecompiled(name, schema);
  if (precompiled) return precompiled;
  const [{ compileSchema }, { MANIFEST_AJV_OPTIONS }] = await Promise.all([
    import("../../core/schema/schema-validator.js"),
    import("../../core/schema/ajv-options.js"),
  ]);
  return compileSchema(schema, MANIFEST_AJV_OPTIONS);
}

/**
 * Ajv's errors for a JSON file, one indented line each, at most 10: the pointer, what is wrong, and the member it
 * concerns.
 */
export function describeAjvErrors(errors: readonly ErrorObject[]): string[] {
  return errors.slice(0, 10).map((e) => {
    const extra =
      e.params && "additionalProperty" in e.params
        ? ` (${String(e.params.additionalProperty)})`
        : e.params && "propertyName" in e.params
          ? ` (${String(e.params.propertyName)})`
          : "";
    // A constant or a choice says what it must be, not only that it is not it.
    const allowed =
      e.keyword === "const" && e.params && "allowedValue" in e.params
        ? `must be ${JSON.stringify(e.params.allowedValue)}`
        : e.keyword === "enum" && e.params && Array.isArray((e.params as { allowedValues?: unknown }).allowedValues)
          ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
          : undefined;
    return `  ${e.instancePath || "/"} ${allowed ?? e.message}${extra}`;
  });
}
