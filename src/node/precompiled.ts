import type { ValidateFunction } from "ajv/dist/2020.js";

/** The schemas `npm run build` precompiles to standalone validators (scripts/build-validator.js). */
export type PrecompiledName = "record" | "manifest" | "config";

/**
 * The precompiled validator of `name`, when it was built and built from exactly `schema` (each module
 * embeds the schema text it came from); else undefined, and the caller compiles at run time. Loading
 * it needs neither Ajv nor a compile, which is most of the start-up time saved.
 */
export async function loadPrecompiled(name: PrecompiledName, schema: unknown): Promise<ValidateFunction | undefined> {
  try {
    const module = (await import(new URL(`../generated/${name}-validator.js`, import.meta.url).href)) as { schemaText: string; validate: ValidateFunction };
    return module.schemaText === JSON.stringify(schema) ? module.validate : undefined;
  } catch {
    return undefined;
  }
}
