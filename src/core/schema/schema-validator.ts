import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { RE2JS } from "re2js";
import { errorMessage } from "../errors.js";
import { AJV_OPTIONS } from "./ajv-options.js";
import { buildRecordSchema } from "./schema.js";
import { recordCheckFrom, type RecordSchemaCheck } from "./schema-issues.js";

// ajv-formats ships CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

/** Thrown when a schema cannot be compiled; the CLI reports it as a configuration error. */
export class SchemaCompileError extends Error {
  override name = "SchemaCompileError";
}

/** Compiles any schema with Ajv 2020-12 in strict mode with every format of ajv-formats; throws SchemaCompileError. */
export function compileSchema(schema: unknown, options: Record<string, unknown> = {}): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, ...options });
  addFormats(ajv);
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    throw new SchemaCompileError(`the schema does not compile: ${errorMessage(error)}`);
  }
}

/**
 * The patterns of the bundled record schema: written and reviewed here, matched in linear time by the native engine
 * (anchored, no nested ambiguity).
 */
const REVIEWED_PATTERNS = new Set<string>();
function collectPatterns(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  for (const [key, child] of Object.entries(value)) {
    if (key === "pattern" && typeof child === "string") REVIEWED_PATTERNS.add(child);
    else collectPatterns(child);
  }
}
collectPatterns(buildRecordSchema());

/**
 * The regular expression engine for schemas from outside (`--schema`, a repository's schema): the
 * bundled schema's own patterns run natively; any other runs on RE2 (re2js), which matches in time
 * linear in the input, so a catastrophic pattern cannot hang validation; a pattern RE2 cannot run
 * (lookaround, backreferences) is refused with a clear message.
 */
const boundedRegExp = Object.assign(
  (pattern: string, flags: string) => {
    if (REVIEWED_PATTERNS.has(pattern)) return new RegExp(pattern, flags);
    let compiled: RE2JS;
    try {
      // ECMAScript's \uXXXX is RE2's \x{XXXX}; everything else of the JSON Schema regex dialect RE2 reads as it is, or
      // refuses.
      compiled = RE2JS.compile(pattern.replace(/(?<!\\)((?:\\\\)*)\\u([0-9a-fA-F]{4})/g, "$1\\x{$2}"));
    } catch (error) {
      throw new SchemaCompileError(
        `the pattern ${JSON.stringify(pattern)} cannot be matched in bounded time (${errorMessage(error)}): rewrite it without lookaround or backreferences, which RE2 does not support`,
      );
    }
    // Ajv keys compiled patterns by their toString(): it must name the pattern.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:/${pattern}/${flags}` };
  },
  { code: "boundedRegExp" },
);

/**
 * Compiles a record schema with the discriminator on and every error kept (AJV_OPTIONS), its patterns matched in
 * bounded time.
 */
export function compileRecordSchema(schema: unknown): RecordSchemaCheck {
  try {
    return recordCheckFrom(compileSchema(schema, { ...AJV_OPTIONS, code: { regExp: boundedRegExp } }));
  } catch (error) {
    if (error instanceof SchemaCompileError && error.message.includes("cannot be matched in bounded time"))
      throw new SchemaCompileError(
        error.message.replace(/^the schema does not compile: (?:.*?: )?(?=the pattern)/, ""),
      );
    throw error;
  }
}
