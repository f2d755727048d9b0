/**
 * How `diff` compares a record's fields without keeping the record (src/core/diff/diff-records.ts): each compared field
 * the schema knows is digested to 64 bits (two 32-bit words of a row), and each field it does not know to a short hex
 * digest kept apart. Pure.
 */
import { sha256Bytes, sha256Hex } from "../bytes.js";
import { fieldValueText } from "../records/record-fingerprint.js";
import { buildRecordSchema } from "../schema/schema.js";

/** The 32-bit word (little-endian) of a digest at byte `at`. */
function wordAt(digest: Uint8Array, at: number): number {
  return (digest[at]! | (digest[at + 1]! << 8) | (digest[at + 2]! << 16) | (digest[at + 3]! << 24)) >>> 0;
}
/** A string value that is a SHA-256 in lowercase hex, behind its "s" tag. */
const HEX_DIGEST = /^s[0-9a-f]{64}$/;
/** Keeps a hex digest's 64 bits apart from the SHA-256 of a string that happens to start with them. */
const HEX_TAG = 0x5a5a5a5a;

/** The schema's field names, built once (a diff of thousands of datasets builds a RecordDiff per pair). */
let fieldNames: readonly string[] | undefined;

/** Every field either variant of the bundled schema has, in the schema's (sorted) order. */
export function schemaFieldNames(): string[] {
  fieldNames ??= namesInSchema();
  return [...fieldNames];
}

function namesInSchema(): string[] {
  const defs = (buildRecordSchema() as { $defs: Record<string, { properties?: Record<string, unknown> }> }).$defs;
  const names = new Set<string>();
  for (const variant of ["markdownArtifact", "structuralContainer"])
    for (const name of Object.keys(defs[variant]?.properties ?? {})) names.add(name);
  return [...names].sort();
}

/** The digests of the compared fields of records, one record after another (a field's text digested before is reused). */
export class FieldDigests {
  /** The compared fields the schema knows, in its order: not the uncompared ones, nor citationAddress (the key). */
  readonly known: string[];
  /** Each known compared field's index in `known`. */
  readonly slot = new Map<string, number>();
  private readonly uncompared: Set<string>;
  /** Two 32-bit words a known compared field in a row of field digests. */
  readonly width: number;
  readonly textDigestSlot: number;
  /** The row `digestRow` digests into. */
  readonly scratch: Uint32Array;
  private readonly lastText: (string | undefined)[];
  private readonly lastDigest: Uint32Array;

  constructor(uncompared: readonly string[]) {
    this.uncompared = new Set(uncompared);
    // citationAddress is the key: matched records have the same one.
    this.known = schemaFieldNames().filter((name) => !this.uncompared.has(name) && name !== "citationAddress");
    for (const [index, name] of this.known.entries()) this.slot.set(name, index);
    this.width = this.known.length * 2;
    this.textDigestSlot = this.slot.get("textDigest")!;
    this.lastText = new Array(this.known.length);
    this.lastDigest = new Uint32Array(this.width);
    this.scratch = new Uint32Array(this.width);
  }

  /** True for a field that is no unknown compared one: a known one, an uncompared one, or the key. */
  notExtra(key: string): boolean {
    return this.slot.has(key) || this.uncompared.has(key) || key === "citationAddress";
  }

  /**
   * Digests the known compared field `k` of `record` into `out` at `at` (0,0 when absent): the first
   * 64 bits of the SHA-256 of its canonical JSON (so that no crafted value can pass for another), or,
   * for a value that is itself a SHA-256 in hex (textDigest), its first 64 bits. A field whose text is
   * the one digested before (dataset fields, trails) reuses its digest.
   */
  digestField(record: Record<string, unknown>, k: number, out: Uint32Array, at: number): void {
    const value = record[this.known[k]!];
    if (value === undefined) {
      out[at] = 0;
      out[at + 1] = 0;
      return;
    }
    const text = fieldValueText(value);
    if (text === this.lastText[k]) {
      out[at] = this.lastDigest[2 * k]!;
      out[at + 1] = this.lastDigest[2 * k + 1]!;
      return;
    }
    let d0: number;
    let d1: number;
    if (text.length === 65 && HEX_DIGEST.test(text)) {
      d0 = Number.parseInt(text.slice(1, 9), 16) ^ HEX_TAG;
      d1 = Number.parseInt(text.slice(9, 17), 16);
    } else {
      const digest = sha256Bytes(text);
      d0 = wordAt(digest, 0);
      d1 = wordAt(digest, 4);
    }
    if (d0 === 0 && d1 === 0) d0 = 1; // 0,0 means absent
    out[at] = d0;
    out[at + 1] = d1;
    this.lastText[k] = text;
    this.lastDigest[2 * k] = d0;
    this.lastDigest[2 * k + 1] = d1;
  }

  /** Every known compared field of `record`, digested into `scratch`. */
  digestRow(record: Record<string, unknown>): void {
    for (let k = 0; k < this.known.length; k++) this.digestField(record, k, this.scratch, 2 * k);
  }

  /** Unknown compared fields of a record (field → digest), or undefined when it has none. */
  extraFields(record: Record<string, unknown>): Map<string, string> | undefined {
    let extra: Map<string, string> | undefined;
    for (const key of Object.keys(record)) {
      if (this.notExtra(key)) continue;
      extra ??= new Map();
      extra.set(key, sha256Hex(fieldValueText(record[key])).slice(0, 16));
    }
    return extra;
  }
}
