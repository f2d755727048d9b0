import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { describeValue } from "../text.js";

/** One schema violation, already phrased for a reader. */
export interface SchemaIssue {
  pointer: string;
  messageId: "missing" | "additional" | "invalid";
  message: string;
}

/** Checks one parsed record against the compiled schema. */
export type RecordSchemaCheck = (record: unknown) => SchemaIssue[];

/** Wraps a compiled (or precompiled standalone) Ajv validate function as a RecordSchemaCheck. */
export function recordCheckFrom(validate: ValidateFunction): RecordSchemaCheck {
  return (record) => (validate(record) ? [] : toIssues(validate.errors ?? [], record));
}

function appendPointer(pointer: string, key: string): string {
  return `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function fieldName(pointer: string): string {
  if (pointer === "") return "the record";
  const last = pointer
    .slice(pointer.lastIndexOf("/") + 1)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
  return /^[0-9]+$/.test(last) ? `${pointer.slice(1)}` : last;
}

function toIssues(errors: ErrorObject[], record: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  const push = (issue: SchemaIssue) => {
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  };
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const described = (error.parentSchema as { description?: string } | undefined)?.description;
    switch (error.keyword) {
      case "discriminator":
        push(targetKindIssue(record));
        break;
      case "required": {
        if (error.instancePath === "" && params.missingProperty === "targetKind") {
          push(targetKindIssue(record));
          break;
        }
        const pointer = appendPointer(error.instancePath, String(params.missingProperty));
        push({
          pointer,
          messageId: "missing",
          message: `missing required field "${params.missingProperty}"${variantSuffix(record)}`,
        });
        break;
      }
      case "additionalProperties": {
        const pointer = appendPointer(error.instancePath, String(params.additionalProperty));
        push({
          pointer,
          messageId: "additional",
          message: `unexpected field "${params.additionalProperty}": the ${variantName(record)} record allows no other fields`,
        });
        break;
      }
      case "type":
        push({
          pointer: error.instancePath,
          messageId: "invalid",
          message: `${fieldName(error.instancePath)} must be ${article(String(params.type))}, got ${describeValue(error.data)}`,
        });
        break;
      case "const":
        push({
          pointer: error.instancePath,
          messageId: "invalid",
          message: `${fieldName(error.instancePath)} is ${describeValue(error.data)}: expected ${JSON.stringify(params.allowedValue)}`,
        });
        break;
      case "enum":
        if (error.instancePath === "/targetKind") {
          push(targetKindIssue(record));
          break;
        }
        push({
          pointer: error.instancePath,
          messageId: "invalid",
          message: `${fieldName(error.instancePath)} is ${describeValue(error.data)}: expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        });
        break;
      case "if":
      case "allOf":
      case "oneOf":
      case "anyOf":
        break; // the clause that failed inside has its own error
      default:
        push({
          pointer: error.instancePath,
          messageId: "invalid",
          message: `${fieldName(error.instancePath)} ${described ?? error.message ?? "is invalid"}, got ${describeValue(error.data)}`,
        });
    }
  }
  return issues;
}

function targetKindIssue(record: unknown): SchemaIssue {
  const value = (record as Record<string, unknown>).targetKind;
  const expected = 'expected "markdown-artifact" or "structural-container"';
  return value === undefined
    ? { pointer: "/targetKind", messageId: "missing", message: `missing required field "targetKind": ${expected}` }
    : { pointer: "/targetKind", messageId: "invalid", message: `targetKind is ${describeValue(value)}: ${expected}` };
}

function variantName(record: unknown): string {
  const kind = (record as Record<string, unknown> | null)?.targetKind;
  return typeof kind === "string" ? kind : "citation-target";
}

function variantSuffix(record: unknown): string {
  const kind = (record as Record<string, unknown> | null)?.targetKind;
  return typeof kind === "string" ? ` (every field of a ${kind} record is required)` : "";
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
