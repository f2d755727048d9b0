// What one record costs in each stage of validate, each stage timed on its own over the same file
// (issue #8: find the per-record work worth cutting). Run `npm run build` first.
//
//   node bench/stage-costs.js [file.jsonl] [--reps N]
//
// Default file: bench/data/realistic/out-75mb/bundesrecht.jsonl. The file is read in runs of complete
// lines of about 1 MiB, as the engine reads it; each run goes through every stage in turn (read, UTF-8
// check and decode, line split, JSON.parse, canonical form the old and the new way, schema, the two
// SHA-256 derivations, address parse, each other rule), each stage timed over the whole run, so the
// clock is read twice per stage and run, not per record. Then the full engine (createFileCheck, every
// rule, no lock manifest) checks the file. Each figure is the lowest of N passes (default 3), in ns per
// record, with its share of the full check. Garbage collection lands in whichever stage triggers it.
// Three rows measure an alternative to the row above them (the canonical check before issue #8, the
// canonical check told the text is well formed, a UTF-8 decode through UTF-16); the sum leaves them out.
import { isUtf8, transcode } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { analyseCanonical } from "../dist/core/json/canonical.js";
import { recordCheckFrom } from "../dist/core/schema/schema-issues.js";
import { createFileCheck, deriveCitationTargetId, deriveTextDigest, parseAddress, rules } from "../dist/index.js";
import { nestingDepth } from "../dist/engine/read-records.js";
import { addressOf } from "../dist/rules/define.js";

// The precompiled record validator (CommonJS: src/node/config/precompiled-text.ts).
const { validate: precompiledRecordValidate } = createRequire(import.meta.url)(
  "../dist/generated/record-validator.cjs",
);

const args = process.argv.slice(2);
const repsAt = args.indexOf("--reps");
const reps = repsAt === -1 ? 3 : Number(args.splice(repsAt, 2)[1]);
const file = args[0] ?? new URL("data/realistic/out-75mb/bundesrecht.jsonl", import.meta.url).pathname;
const RUN_BYTES = 1 << 20;
const schemaCheck = recordCheckFrom(precompiledRecordValidate);
/** Rules measured as stages of their own: not timed again as rules. */
const OWN_STAGES = new Set(["text-digest", "citation-target-id"]);

/**
 * The canonical-form fast path before issue #8: serialise the parsed record again and compare, then walk its members.
 */
function canonicalByStringify(text, value) {
  try {
    return JSON.stringify(value) === text && !text.includes("\\ud") && membersSorted(value);
  } catch {
    return false;
  }
}
function membersSorted(value) {
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(membersSorted);
  let previous;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) return false;
    if (!membersSorted(value[key])) return false;
    previous = key;
  }
  return true;
}

/**
 * Each rule of `scope`, created with a context that drops its reports; manifest rules (no lock) and the rules of
 * OWN_STAGES left out.
 */
function createRules(scopes) {
  const context = {
    fileName: "bundesrecht.jsonl",
    file: "bundesrecht.jsonl",
    lock: undefined,
    manifestPath: undefined,
    report() {},
  };
  return rules
    .filter((rule) => scopes.includes(rule.scope) && rule.create && !OWN_STAGES.has(rule.id))
    .map((rule) => ({ id: rule.id, handlers: rule.create(context) }));
}

/** The runs of complete lines of the file, about RUN_BYTES each; `onRun` gets each, with the time its read took. */
function readRuns(onRun) {
  const fd = openSync(file, "r");
  let buffer = Buffer.alloc(RUN_BYTES * 2);
  let kept = 0;
  for (;;) {
    const started = process.hrtime.bigint();
    if (buffer.length - kept < RUN_BYTES) {
      const bigger = Buffer.alloc(buffer.length * 2);
      buffer.copy(bigger, 0, 0, kept);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, kept, buffer.length - kept, null);
    const readNs = Number(process.hrtime.bigint() - started);
    const filled = kept + read;
    const end = read === 0 ? filled : buffer.lastIndexOf(0x0a, filled - 1) + 1;
    if (end > 0) onRun(buffer.subarray(0, end), readNs);
    if (read === 0) break;
    buffer.copy(buffer, 0, end, filled);
    kept = filled - end;
  }
  closeSync(fd);
}

/** One pass over the file, every stage in turn on each run; returns ns per stage and the record count. */
function stagePass() {
  const ns = new Map();
  const recordRules = createRules(["record", "dataset"]);
  let records = 0;
  let lineNumber = 0;
  const timed = (name, work) => {
    const started = process.hrtime.bigint();
    const result = work();
    ns.set(name, (ns.get(name) ?? 0) + Number(process.hrtime.bigint() - started));
    return result;
  };
  readRuns((run, readNs) => {
    ns.set("read (1 MiB runs)", (ns.get("read (1 MiB runs)") ?? 0) + readNs);
    timed("UTF-8 check (isUtf8)", () => isUtf8(run));
    const text = timed("UTF-8 decode", () => run.toString("utf8"));
    timed("UTF-8 decode via UTF-16 (transcode)", () => transcode(run, "utf8", "ucs2").toString("utf16le"));
    const lines = timed("split lines", () => {
      const out = [];
      for (let start = 0; start < text.length; ) {
        const newline = text.indexOf("\n", start);
        const end = newline === -1 ? text.length : newline;
        if (end > start) out.push(text.slice(start, end));
        start = end + 1;
      }
      return out;
    });
    const values = timed("JSON.parse", () => lines.map((line) => JSON.parse(line)));
    timed("nesting depth", () => {
      for (const value of values) nestingDepth(value, 64);
    });
    records += lines.length;
    timed("canonical form, old (JSON.stringify)", () => {
      for (let i = 0; i < lines.length; i++)
        if (!canonicalByStringify(lines[i], values[i]))
          throw new Error(`line ${lineNumber + i + 1} is not canonical: measure a clean file`);
    });
    timed("canonical form, new (analyseCanonical)", () => {
      for (let i = 0; i < lines.length; i++)
        if (analyseCanonical(lines[i], values[i]).kind !== "canonical")
          throw new Error(`line ${lineNumber + i + 1} is not canonical`);
    });
    timed("canonical form, new, text known well formed", () => {
      for (let i = 0; i < lines.length; i++)
        if (analyseCanonical(lines[i], values[i], true).kind !== "canonical")
          throw new Error(`line ${lineNumber + i + 1} is not canonical`);
    });
    timed("schema (precompiled Ajv)", () => {
      for (const value of values) schemaCheck(value);
    });
    timed("text-digest SHA-256", () => {
      for (const value of values)
        deriveTextDigest(value.targetKind === "markdown-artifact" ? value.markdown : value.headingText);
    });
    timed("citation-target-id SHA-256", () => {
      for (const value of values) deriveCitationTargetId(value.datasetDigest, value.citationAddress);
    });
    timed("address parse (parseAddress)", () => {
      for (const value of values) parseAddress(value.citationAddress);
    });
    // The rules below find each address parsed already (addressOf keeps it per record), as in the engine after the
    // first rule that needs it.
    for (const value of values) addressOf(value);
    const visits = values.map((record, i) => ({ record, line: lineNumber + i + 1, schemaValid: true }));
    for (const { id, handlers } of recordRules) {
      if (!handlers.record) continue;
      timed(`rule ${id}`, () => {
        for (const visit of visits) handlers.record(visit);
      });
    }
    lineNumber += lines.length;
  });
  return { ns, records };
}

/**
 * The full engine over the file: every rule, reports kept, as `validate` runs it on one thread without a lock manifest.
 */
function fullPass() {
  const check = createFileCheck({ rules, file: "bundesrecht.jsonl", schemaCheck });
  const started = process.hrtime.bigint();
  readRuns((run) => check.push(run));
  const result = check.end();
  return { ns: Number(process.hrtime.bigint() - started), records: result.records, problems: result.problems.length };
}

const best = new Map();
let full = Number.POSITIVE_INFINITY;
let records = 0;
let problems = 0;
for (let rep = 0; rep < reps; rep++) {
  const pass = stagePass();
  records = pass.records;
  for (const [name, ns] of pass.ns) best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, ns));
  const whole = fullPass();
  full = Math.min(full, whole.ns);
  problems = whole.problems;
}

const perRecord = (ns) => ns / records;
const share = (ns) => `${((100 * ns) / full).toFixed(1)}%`;
const rows = [...best].map(([name, ns]) => [name, perRecord(ns), share(ns)]);
const baseline = ["read (1 MiB runs)", "UTF-8 decode", "split lines", "JSON.parse"].reduce(
  (sum, name) => sum + (best.get(name) ?? 0),
  0,
);
const ruleTotal = [...best].filter(([name]) => name.startsWith("rule ")).reduce((sum, [, ns]) => sum + ns, 0);
/** Rows that measure an alternative to another row: not part of the sum. */
const ALTERNATIVES = [
  "canonical form, old (JSON.stringify)",
  "canonical form, new, text known well formed",
  "UTF-8 decode via UTF-16 (transcode)",
];
const stageTotal = [...best].filter(([name]) => !ALTERNATIVES.includes(name)).reduce((sum, [, ns]) => sum + ns, 0);
console.log(`${file}: ${records} records, lowest of ${reps} passes; full check reported ${problems} problems`);
console.log(`${"stage".padEnd(44)} ${"ns/record".padStart(10)} ${"of full".padStart(8)}`);
for (const [name, ns, pct] of rows) console.log(`${name.padEnd(44)} ${ns.toFixed(0).padStart(10)} ${pct.padStart(8)}`);
console.log("-".repeat(64));
for (const [name, ns] of [
  ["read + decode + split + JSON.parse", baseline],
  ["all rules timed as rules", ruleTotal],
  ["sum of stages (new canonical path)", stageTotal],
  ["full createFileCheck", full],
])
  console.log(`${name.padEnd(44)} ${perRecord(ns).toFixed(0).padStart(10)} ${share(ns).padStart(8)}`);
console.log(`read+decode+split+parse / full check: ${(baseline / full).toFixed(2)}x`);
