import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { AJV_OPTIONS } from "./ajv-options.js";
import { recordCheckFrom, type RecordSchemaCheck } from "./schema-issues.js";

export type { RecordSchemaCheck, SchemaIssue } from "./schema-issues.js";
export { recordCheckFrom } from "./schema-issues.js";

// ajv-formats ships CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** Thrown when a schema cannot be compiled; the CLI reports it as a configuration error. */
export class SchemaCompileError extends Error {
  override name = "SchemaCompileError";
}

export { AJV_OPTIONS, MANIFEST_AJV_OPTIONS } from "./ajv-options.js";

/** Compiles any schema with Ajv 2020-12 in strict mode with every format of ajv-formats; throws SchemaCompileError. */
export function compileSchema(schema: unknown, options: Record<string, unknown> = {}): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, ...options });
  addFormats(ajv);
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    throw new SchemaCompileError(`the schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Compiles a record schema with the discriminator on and every error kept (AJV_OPTIONS). */
export function compileRecordSchema(schema: unknown): RecordSchemaCheck {
  return recordCheckFrom(compileSchema(schema, AJV_OPTIONS));
}
