import { RECORD_DATASET_FIELDS } from "../core/model.js";
import { generatedWindows } from "../core/records/generated-window.js";
import { quote } from "../core/text.js";
import { defineRule, regenerateCommand, type TargetRecord } from "./define.js";

/**
 * Fields proved by other rules, not compared here: those every record repeats from the manifest (a difference is said
 * once per file by lock-dataset-fields, lock-dataset-digest and schema-version, not once per record), and the digests
 * that are functions of the record's own fields compared here (text-digest: of its markdown; citation-target-id: of
 * its datasetDigest and citationAddress).
 */
const SAID_ONCE: ReadonlySet<string> = new Set([...RECORD_DATASET_FIELDS, "textDigest", "citationTargetId"]);

/** Two JSON values equal (the members of a record: strings, numbers, arrays of strings; anything else by its JSON). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  return (
    typeof a === "object" &&
    typeof b === "object" &&
    a !== null &&
    b !== null &&
    JSON.stringify(a) === JSON.stringify(b)
  );
}

/**
 * The file's line of each record met, by its place in what generate writes (4 bytes a record): where a record left out
 * belongs is the line of the next one the file has.
 */
class LinesByOrder {
  private lines = new Int32Array(1024);
  private last = 0;
  /** By order: the line of the next record met at or after it (made on the first question). */
  private next: Int32Array | undefined;

  set(order: number, line: number): void {
    if (order >= this.lines.length) {
      const grown = new Int32Array(Math.max(2 * this.lines.length, order + 1));
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[order] = line;
    if (line > this.last) this.last = line;
  }

  /** The line of the first record met after `order`, or the last line met (0 when none was). */
  after(order: number): number {
    if (this.next === undefined) {
      this.next = new Int32Array(this.lines.length + 1);
      let line = this.last;
      for (let k = this.lines.length - 1; k >= 0; k--) {
        this.next[k + 1] = line;
        if (this.lines[k] !== 0) line = this.lines[k]!;
      }
      this.next[0] = line;
    }
    return order + 1 < this.next.length ? this.next[order + 1]! : this.last;
  }
}

/** A map of generated records as address and place, in generate's order. */
function* mapEntries(generated: ReadonlyMap<string, { order: number }>): Generator<[string, number]> {
  for (const [address, { order }] of generated) yield [address, order];
}

/** The most of a value's JSON a message shows. */
const SHOWN = 80;

/** A value as a message shows it: its JSON, cut when long. */
function shown(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > SHOWN ? `${json.slice(0, SHOWN - 1)}…` : json;
}

/** A combining mark: drawn on the character before it, never seen on its own. */
const MARK = /\p{M}/u;

/** Characters that show as nothing, or as a plain space, on a terminal: marks, format characters, other spaces. */
const UNSEEN = /[\p{M}\p{Cf}\p{Z}]/u;

/** The character at `at` of a text with the combining marks drawn on it: from its base to its last mark. */
function clusterAt(text: string, at: number): string {
  let start = at;
  while (start > 0 && MARK.test(text[start]!)) start--;
  let end = Math.min(at + 1, text.length);
  while (end < text.length && MARK.test(text[end]!)) end++;
  return text.slice(start, end);
}

/** A cluster as a message names it: each character that cannot be seen by its code point and kind ("u" U+0308 (combining mark)). */
function spelled(cluster: string): string {
  if (cluster === "") return "nothing";
  return [...cluster]
    .map((c) => {
      if (c === " " || !UNSEEN.test(c)) return JSON.stringify(c);
      const kind = MARK.test(c) ? "combining mark" : /\p{Cf}/u.test(c) ? "format character" : "space";
      return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} (${kind})`;
    })
    .join(" ");
}

/**
 * Where two JSON texts first differ in something a terminal does not show (a combining mark, a format character, a
 * space other than U+0020), what each has there, by code point; and when they are the same text in another Unicode
 * normalisation, that the file's is not the composed form (NFC) generate writes. Empty when the difference can be seen.
 */
function unseenDifference(a: string, b: string, at: number): string {
  const ours = clusterAt(a, at);
  const theirs = clusterAt(b, at);
  if (!UNSEEN.test(ours.replaceAll(" ", "")) && !UNSEEN.test(theirs.replaceAll(" ", ""))) return "";
  const normalisation =
    a.normalize("NFC") !== b.normalize("NFC")
      ? ""
      : MARK.test(ours)
        ? ": the same text decomposed, which generate writes composed (Unicode NFC)"
        : ": the same text in another Unicode form than generate's (NFC)";
  return ` (where they differ, the file has ${spelled(ours)}, generate writes ${spelled(theirs)}${normalisation})`;
}

/**
 * Two differing values as a message shows them: their JSON, and when long, each cut to the same window around
 * where they first differ, so that the difference is in sight; and what differs, by code point, when it cannot be seen
 * (unseenDifference).
 */
function shownPair(actual: unknown, expected: unknown): [string, string, string] {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  let at = 0;
  while (at < a.length && at < b.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  const unseen = unseenDifference(a, b, at);
  if (a.length <= SHOWN && b.length <= SHOWN) return [a, b, unseen];
  const start = Math.max(0, at - 20);
  const cut = (json: string) =>
    `${start > 0 ? "…" : ""}${json.slice(start, start + SHOWN)}${start + SHOWN < json.length ? "…" : ""}`;
  return [cut(a), cut(b), unseen];
}

/**
 * generate's refusal as validate says it: validate compares with what generate writes under its default caps, and has no
 * flag to raise one, so "raise it with --max-…" names the commands that have it.
 */
function validatesCause(cause: string): string {
  return cause.replace(
    /\(raise it with (--max-[a-z-]+)\)/g,
    "(generate's default, which validate compares with; generate and update raise it with $1)",
  );
}

/**
 * Records generate writes that a file lacks are named one by one up to this many; the rest in one problem, and a file
 * that holds none of them (emptied, or another law's) gets one problem in all.
 */
const MISSING_NAMED = 5;

export const lockGenerated = defineRule({
  id: "lock-generated",
  scope: "manifest",
  meta: {
    description:
      "With every artifact at hand and matching its pinned sha256, each record is exactly what `generate` writes for it from the manifest: no field edited by hand, no record added or left out.",
    defaultSeverity: "error",
  },
  messages: {
    field: "{{field}} is {{actual}}, generate writes {{expected}}{{unseen}}: regenerate this file with {{fix}}",
    absent: "{{field}} is absent, generate writes {{expected}}: regenerate this file with {{fix}}",
    extra: "{{field}} is {{actual}}, generate writes no {{field}}: regenerate this file with {{fix}}",
    unknown:
      "citationAddress {{address}} is not among the records generate writes from {{manifest}}: regenerate this file with {{fix}}",
    notHere:
      "generate writes a record with citationAddress {{address}} (record {{order}} of what it writes), which is not in this file: regenerate it with {{fix}}",
    moreNotHere:
      "generate writes {{count}} more records that are not in this file (the first of them citationAddress {{address}}, record {{order}} of what it writes): regenerate it with {{fix}}",
    noneHere:
      "this file holds none of the {{count}} records generate writes from {{manifest}} (the first citationAddress {{address}}): regenerate it with {{fix}}",
    refused:
      "the records could not be compared with what generate writes, because generate refuses the dataset of {{manifest}}: {{cause}}",
  },
  create(context) {
    const lock = context.lock!;
    const seen = new Set<string>();
    const lines = new LinesByOrder();
    let skipped = 0;
    /** Records of the file found among those generate writes. */
    let compared = 0;
    /** A record of another datasetDigest was met: the file is stale, which lock-dataset-digest says once. */
    let stale = false;
    const fix = () => regenerateCommand(context);
    const compare = (record: TargetRecord, line: number, expected: Readonly<TargetRecord>) => {
      /** The members of `expected` the record has, those said once included. */
      let present = 0;
      for (const field in expected) {
        const value = expected[field];
        const actual = record[field];
        // The same string or number (most members of most records): nothing more to look at.
        if (actual !== undefined && actual === value) {
          present++;
          continue;
        }
        if (!(field in record)) {
          if (!SAID_ONCE.has(field))
            context.report({
              messageId: "absent",
              data: { field, expected: shown(value), fix: fix() },
              line,
              pointer: `/${field}`,
            });
          continue;
        }
        present++;
        if (SAID_ONCE.has(field)) continue;
        if (!sameValue(actual, value)) {
          const [shownActual, wanted, unseen] = shownPair(actual, value);
          context.report({
            messageId: "field",
            data: { field, actual: shownActual, expected: wanted, unseen, fix: fix() },
            line,
            pointer: `/${field}`,
          });
        }
      }
      // A member `expected` lacks: only when the record has more members than those found above.
      let members = 0;
      for (const _ in record) members++;
      if (members > present)
        for (const field in record)
          if (!(field in expected) && !SAID_ONCE.has(field))
            context.report({
              messageId: "extra",
              data: { field, actual: shown(record[field]), fix: fix() },
              line,
              pointer: `/${field}`,
            });
    };
    return {
      record({ record, line }) {
        const generated = lock.generated;
        const window = generated === undefined ? generatedWindows.get(lock) : undefined;
        if (generated === undefined && window === undefined) return;
        const address = record.citationAddress;
        if (typeof address !== "string") return; // the schema says so
        if (record.datasetDigest !== lock.manifest.datasetDigest) {
          // Generated from another lock (or its digest edited): lock-dataset-digest says so once; its fields, all
          // derived under another digest, are not compared one by one.
          stale = true; // nothing is said "not in this file" then: `seen` is not asked
          return;
        }
        // Made as the file is read (generated-window.ts): taken from the window, which gives up where it cannot answer
        // as the map would (the check is then made again with the map).
        const expected = generated !== undefined ? generated.get(address) : window!.take(address);
        if (expected === undefined) {
          if (window?.abandoned) return;
          context.report({
            messageId: "unknown",
            data: { address: quote(address), manifest: lock.manifestPath, fix: fix() },
            line,
            pointer: "/citationAddress",
          });
          return;
        }
        // The window's untaken records are those never met: only the map's need `seen` (620,027 addresses of the statute
        // book with its units: 21 MB of heap).
        if (generated !== undefined) seen.add(address);
        compared++;
        lines.set(expected.order, line);
        compare(record, line, expected.record);
      },
      // A line that is not a record may hold a generated record: while there is one, "not in this file" is not said.
      skipped() {
        skipped++;
      },
      end() {
        if (lock.generateFailed !== undefined) {
          context.report({
            messageId: "refused",
            data: { manifest: lock.manifestPath, cause: validatesCause(lock.generateFailed) },
            line: 0,
            pointer: "",
          });
          return;
        }
        const window = generatedWindows.get(lock);
        if ((lock.generated === undefined && window === undefined) || skipped > 0 || stale) return;
        const made = lock.generated !== undefined ? mapEntries(lock.generated) : window!.untaken();
        const missing: [string, number][] = [];
        for (const [address, order] of made)
          if (lock.generated === undefined || !seen.has(address)) missing.push([address, order]);
        if (missing.length === 0) return;
        // A file emptied or cut short: one problem for what is not there, not one a record (thousands for a law).
        if (compared === 0 && missing.length > MISSING_NAMED) {
          context.report({
            messageId: "noneHere",
            data: { count: missing.length, manifest: lock.manifestPath, address: quote(missing[0]![0]), fix: fix() },
            line: 0,
            pointer: "",
          });
          return;
        }
        for (const [i, [address, order]] of missing.entries()) {
          const more = missing.length - i;
          // Where it belongs: the line of the next record generate writes that the file has, else its last.
          const line = lines.after(order);
          if (i === MISSING_NAMED && more > 1) {
            context.report({
              messageId: "moreNotHere",
              data: { count: more, address: quote(address), order: order + 1, fix: fix() },
              line,
              pointer: "",
            });
            return;
          }
          context.report({
            messageId: "notHere",
            data: { address: quote(address), order: order + 1, fix: fix() },
            line,
            pointer: "",
          });
        }
      },
    };
  },
});
