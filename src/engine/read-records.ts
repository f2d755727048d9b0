/**
 * Reading: how the bytes of one JSONL file become records (docs/spec.md, section 11, "Reading").
 * One step of the engine, in the order it happens; each problem is said under the id of the rule
 * that names it (src/rules/<id>.ts, scope "reading"):
 *
 *   bytes      cut at LF; a line longer than the cap is dropped as it streams past  line-length
 *   line       a last line without LF                                                final-newline
 *              a byte order mark at the start, taken off                            bom
 *              a CR before the LF, taken off                                         carriage-return
 *   UTF-8      the line decoded                                                      invalid-utf8
 *              an empty or white-space-only line                                     blank-line
 *   JSON       JSON.parse                                                            json-syntax
 *   depth      arrays and objects nested deeper than the cap                         nesting-depth
 *              a value that is not an object                                         record-not-object
 *   canonical  the line against the canonical form of its record                    duplicate-key, non-canonical
 *   schema     the record against the record schema                                  schema
 *
 * A line that fails line-length, invalid-utf8, blank-line, json-syntax, nesting-depth or
 * record-not-object is no record (`skipped`); every other line is one (`record`), with whether it
 * passed the schema. What is read does not depend on which rules are on: a rule turned off only
 * silences its problems. Work that serves only a silenced rule is left undone (the comparison with
 * the canonical form, the column of a JSON error or of a bad byte).
 */
import { CONFLICT_ADVICE, isConflictMarker } from "../core/lines.js";
import { analyseCanonicalFully, canonicalDepth } from "../core/json/canonical.js";
import { scanJson } from "../core/json/json-scan.js";
import { type Line, LineReader, type TextLine } from "../core/lines.js";
import type { RecordSchemaCheck } from "../core/schema/schema-issues.js";
import { excerptOf, valueAtPointer } from "../core/text.js";
import { firstInvalidUtf8 } from "../core/utf8.js";
import { decodeUtf8, isUtf8 } from "../core/bytes.js";
import type { blankLine } from "../rules/blank-line.js";
import type { bom } from "../rules/bom.js";
import type { carriageReturn } from "../rules/carriage-return.js";
import type { Limits, RecordVisit, Rule, RuleReport } from "../rules/define.js";
import type { duplicateKey } from "../rules/duplicate-key.js";
import type { finalNewline } from "../rules/final-newline.js";
import type { invalidUtf8 } from "../rules/invalid-utf8.js";
import type { jsonSyntax } from "../rules/json-syntax.js";
import type { lineLength } from "../rules/line-length.js";
import type { nestingDepthRule } from "../rules/nesting-depth.js";
import type { nonCanonical } from "../rules/non-canonical.js";
import type { recordNotObject } from "../rules/record-not-object.js";
import type { schema } from "../rules/schema.js";

type ReadingRule =
  | typeof lineLength
  | typeof finalNewline
  | typeof bom
  | typeof carriageReturn
  | typeof invalidUtf8
  | typeof blankLine
  | typeof jsonSyntax
  | typeof nestingDepthRule
  | typeof recordNotObject
  | typeof duplicateKey
  | typeof nonCanonical
  | typeof schema;

/** A problem the reader found: the rule that names it, and one of that rule's messages. */
export type ReadingReport = ReadingRule extends infer R
  ? R extends Rule<infer Id, infer MessageId>
    ? RuleReport<MessageId> & { ruleId: Id }
    : never
  : never;

export type ReadingRuleId = ReadingReport["ruleId"];

/** The rules whose problems the reader finds, in the order it reads. */
export const READING_RULE_IDS: readonly ReadingRuleId[] = [
  "line-length",
  "final-newline",
  "bom",
  "carriage-return",
  "invalid-utf8",
  "blank-line",
  "json-syntax",
  "nesting-depth",
  "record-not-object",
  "duplicate-key",
  "non-canonical",
  "schema",
];

export interface RecordReaderOptions {
  /** The caps on line length and nesting depth. */
  limits: Pick<Limits, "maxLineBytes" | "maxDepth">;
  schemaCheck: RecordSchemaCheck;
  /** The reading rules whose problems are wanted; the problems of the others are not reported. */
  listening: ReadonlySet<ReadingRuleId>;
  report(report: ReadingReport): void;
  /** A line that is a record. */
  record(visit: RecordVisit): void;
  /** A line that is no record. */
  skipped(line: number): void;
}

export interface RecordReader {
  push(chunk: Uint8Array): void;
  /** Reads the last line, if it has no LF after it. */
  end(): void;
}

/** Starts reading one file: push its bytes in chunks of any size, then call `end()`. */
export function createRecordReader(options: RecordReaderOptions): RecordReader {
  const { schemaCheck, listening, report, record, skipped } = options;
  const { maxLineBytes, maxDepth } = options.limits;
  const listens = (id: ReadingRuleId) => listening.has(id);
  const canonical = listens("duplicate-key") || listens("non-canonical");
  const jsonErrorAt = listens("json-syntax");
  const badByteAt = listens("invalid-utf8");
  const schemaIssues = listens("schema");

  /** Bytes and line: a line of a run of lines that is valid UTF-8, decoded with the run. */
  const readText = ({ text, number, terminated }: TextLine) => {
    if (!terminated) report({ ruleId: "final-newline", messageId: "missing", line: number, pointer: "" });
    let line = text;
    if (line.charCodeAt(0) === 0xfeff) {
      report({ ruleId: "bom", messageId: "bom", line: number, column: 1, pointer: "" });
      line = line.slice(1);
    }
    if (line.charCodeAt(line.length - 1) === 0x0d) {
      report({ ruleId: "carriage-return", messageId: "crlf", line: number, pointer: "" });
      line = line.slice(0, -1);
    }
    readDecoded(line, number);
  };

  /** Bytes and line, then UTF-8: a line too long to keep, or a line of a run that is not valid UTF-8, decoded alone. */
  const readBytes = ({ bytes: all, number, terminated, overlong }: Line) => {
    if (overlong !== undefined) {
      report({
        ruleId: "line-length",
        messageId: "tooLong",
        data: { length: overlong, max: maxLineBytes },
        line: number,
        pointer: "",
      });
      skipped(number);
      return;
    }
    if (!terminated) report({ ruleId: "final-newline", messageId: "missing", line: number, pointer: "" });
    let bytes = all;
    if (startsWithBom(bytes)) {
      report({ ruleId: "bom", messageId: "bom", line: number, column: 1, pointer: "" });
      bytes = bytes.subarray(3);
    }
    if (bytes[bytes.length - 1] === 0x0d) {
      report({ ruleId: "carriage-return", messageId: "crlf", line: number, pointer: "" });
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    if (!isUtf8(bytes)) {
      if (badByteAt) {
        const at = firstInvalidUtf8(bytes);
        // The column counts the characters before the bad byte, as a TextDecoder decodes them: a byte order mark still
        // at their start is not counted.
        const before = bytes.subarray(0, at);
        const column = decodeUtf8(before).length + (startsWithBom(before) ? 0 : 1);
        report({
          ruleId: "invalid-utf8",
          messageId: "invalid",
          data: { byte: (bytes[at] ?? 0).toString(16).padStart(2, "0"), byteOffset: at },
          line: number,
          column,
          pointer: "",
        });
      }
      skipped(number);
      return;
    }
    readDecoded(decodeUtf8(bytes), number);
  };

  /** UTF-8 (a blank line), then JSON, depth, canonical form and schema. */
  const readDecoded = (text: string, number: number) => {
    if (BLANK.test(text)) {
      report({ ruleId: "blank-line", messageId: "blank", line: number, pointer: "" });
      skipped(number);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (jsonErrorAt) {
        // JSON.parse gives no usable position: a position-reporting scan finds the error's column.
        const error = isConflictMarker(text)
          ? { index: 0, message: `a git merge conflict marker: ${CONFLICT_ADVICE}` }
          : (scanJson(text).syntaxError ?? { index: 0, message: "not a JSON value" });
        report({
          ruleId: "json-syntax",
          messageId: "invalid",
          data: { detail: error.message },
          line: number,
          column: error.index + 1,
          pointer: "",
          excerpt: excerptOf(text, error.index + 1),
        });
      }
      skipped(number);
      return;
    }
    // A line shown canonical says its depth as it is scanned (canonicalDepth); any other is walked. The scan reports
    // nothing: the order of the steps, and of their problems, is as above.
    const depth = canonical ? canonicalDepth(text, true) : -1; // decoded from valid UTF-8: no lone surrogate
    if ((depth < 0 ? nestingDepth(value, maxDepth) : depth) > maxDepth) {
      report({ ruleId: "nesting-depth", messageId: "tooDeep", data: { max: maxDepth }, line: number, pointer: "" });
      skipped(number);
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      report({ ruleId: "record-not-object", messageId: "notObject", data: { got }, line: number, pointer: "" });
      skipped(number);
      return;
    }
    if (canonical && depth < 0) checkCanonical(text, value, number);
    const issues = schemaCheck(value);
    if (schemaIssues)
      for (const issue of issues) {
        const found = issue.messageId === "missing" ? undefined : valueAtPointer(value, issue.pointer);
        const excerpt = found === undefined ? undefined : excerptOf(JSON.stringify(found) ?? "");
        report({
          ruleId: "schema",
          messageId: issue.messageId,
          data: { detail: issue.message },
          line: number,
          pointer: issue.pointer,
          ...(excerpt ? { excerpt } : {}),
        });
      }
    record({ record: value as Record<string, unknown>, line: number, schemaValid: issues.length === 0 });
  };

  /**
   * The line against the canonical form of its record, once the fast path did not show it canonical. JSON.parse keeps
   * the last of duplicate keys silently; a line with one is never canonical.
   */
  const checkCanonical = (text: string, value: unknown, number: number) => {
    const verdict = analyseCanonicalFully(text, value); // the fast path did not show it canonical
    if (verdict.kind === "canonical") return;
    if (verdict.kind === "duplicates") {
      for (const d of verdict.duplicates)
        report({
          ruleId: "duplicate-key",
          messageId: "duplicate",
          data: { key: d.key, firstColumn: d.firstIndex + 1 },
          line: number,
          column: d.index + 1,
          pointer: d.pointer,
          excerpt: excerptOf(text, d.index + 1),
        });
    } else if (verdict.kind === "unrepresentable") {
      report({
        ruleId: "non-canonical",
        messageId: "notRepresentable",
        data: { reason: verdict.reason },
        line: number,
        pointer: "",
      });
    } else {
      const { found } = verdict;
      report({
        ruleId: "non-canonical",
        messageId: "nonCanonical",
        data: {
          reason: found?.reason ?? "bytes differ from the canonical serialisation",
          expected: found?.expected ?? "the RFC 8785 serialisation of the record",
        },
        line: number,
        column: verdict.column,
        pointer: found?.pointer ?? "",
        excerpt: excerptOf(text, verdict.column),
      });
    }
  };

  return new LineReader(readText, readBytes, maxLineBytes);
}

const BLANK = /^[ \t]*$/;

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * The depth of the deepest array or object in a JSON value (1 for a flat object), or Infinity once past `limit`.
 * Iterative: no recursion on hostile input.
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return Number.POSITIVE_INFINITY;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(current) ? current : Object.values(current))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return deepest;
}
