import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import canonicalize from "canonicalize";
import { createFileCheck, type FileResult } from "../../src/engine/check-file.js";
import { rules as registry } from "../../src/rules/index.js";
import type { LockContext } from "../../src/core/lock/lock-context.js";
import type { RuleSetting } from "../../src/core/report/problem.js";
import { buildRecordSchema } from "../../src/core/schema/schema.js";
import { compileRecordSchema } from "../../src/core/schema/schema-validator.js";
import { deriveCitationTargetId, deriveTextDigest } from "../../src/core/digest.js";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const schemaCheck = compileRecordSchema(buildRecordSchema());

export type Rec = Record<string, unknown>;

/** The records of a committed fixture file. */
export function fixtureRecords(slug: "privacy-act-1988" | "mvfg"): Rec[] {
  return readFileSync(`${repoRoot}.tooling/citation-targets/${slug}.jsonl`, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Rec);
}

/** A deep copy of a fixture record: the first of its kind, or the one at `index`. */
export function sampleRecord(kind: "markdown-artifact" | "structural-container", index = 0): Rec {
  const records = fixtureRecords("privacy-act-1988").filter((r) => r.targetKind === kind);
  return structuredClone(records[index]!);
}

/** Recomputes textDigest and citationTargetId so that only the field under test is wrong. */
export function refresh(record: Rec): Rec {
  const text = record.targetKind === "markdown-artifact" ? record.markdown : record.headingText;
  if (typeof text === "string") record.textDigest = deriveTextDigest(text);
  if (typeof record.datasetDigest === "string" && typeof record.citationAddress === "string") {
    record.citationTargetId = deriveCitationTargetId(record.datasetDigest, record.citationAddress);
  }
  return record;
}

/** Records as canonical JSONL text. */
export function toJsonl(records: Rec[]): string {
  return records.map((r) => `${canonicalize(r)}\n`).join("");
}

/** Runs the core file check over text (or bytes), fed in chunks of `chunkSize`. */
export function check(
  content: string | Uint8Array,
  options: { file?: string; chunkSize?: number; rules?: Partial<Record<string, RuleSetting>>; lock?: LockContext } = {},
): FileResult {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const run = createFileCheck({
    rules: registry,
    file: options.file ?? "privacy-act-1988.jsonl",
    schemaCheck,
    ...(options.rules ? { ruleSettings: options.rules } : {}),
    ...(options.lock ? { lock: options.lock } : {}),
  });
  const size = options.chunkSize ?? 1 << 16;
  for (let i = 0; i < bytes.length; i += size) run.push(bytes.subarray(i, i + size));
  return run.end();
}

/** The problems as compact `line ruleId pointer` strings, for readable assertions. */
export function summary(result: FileResult): string[] {
  return result.problems.map((p) => `${p.line} ${p.ruleId} ${p.pointer}`);
}
