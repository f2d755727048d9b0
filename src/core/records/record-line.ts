/**
 * The one record serialiser (docs/spec.md, section 2): a record as its line, the RFC 8785 (JCS)
 * serialisation of the record followed by "\n". Members come in the UTF-16 code-unit order of their
 * names (the order of `<` and of `Array.prototype.sort` on strings); a string, a finite number and an
 * array of strings are written as `JSON.stringify` writes them, which is their JCS form. Anything else
 * (another kind of value, a string with a lone surrogate, which JCS refuses, a number that is not
 * finite) goes to the general canonicaliser, `canonicalize`, which writes it or throws as JCS says:
 * the line is always `canonicalize(record)` and "\n" (test/record-line.test.ts).
 *
 * The generator builds its records with their members already in order, so that nothing is sorted, and cuts the line
 * where the parts only the whole dataset knows go (`serializeRecordCut`). Its worker threads write a markdown-artifact
 * target's line as bytes without making the record: its artifact's line template (TargetLineTemplate in generate.ts,
 * made with `valueJson`) with the target's values put in, the same bytes as this serialiser's line of the record
 * (test/generate-bytes.test.ts proves them equal on every path of the escaping, with and without units).
 */
import canonicalize from "canonicalize";
import { isWellFormed } from "../text.js";

/** A record as the generator makes it: strings, integers and arrays of strings. */
export type OutputRecord = Record<string, string | number | string[]>;

/**
 * The JCS text of a value: what `canonicalize` gives for it ("undefined" for a value JSON has no text
 * for, as canonicalize writes it inside an object). `wellFormed`: the caller knows that no string in
 * the value holds a lone surrogate, so that check, a pass over each string, is skipped.
 */
export function valueJson(value: unknown, wellFormed = false): string {
  if (typeof value === "string") {
    if (wellFormed || isWellFormed(value)) return JSON.stringify(value);
  } else if (typeof value === "number") {
    if (Number.isFinite(value)) return `${value}`; // what JSON.stringify writes for a finite number (-0 too: "0")
  } else if (Array.isArray(value) && isStrings(value, wellFormed)) return JSON.stringify(value);
  return `${canonicalize(value)}`;
}

/**
 * True for an array of strings (each well-formed, unless the caller knows they are): its JSON.stringify text is its JCS
 * text.
 */
function isStrings(values: readonly unknown[], wellFormed: boolean): boolean {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== "string" || !(wellFormed || isWellFormed(value))) return false;
  }
  return true;
}

/**
 * What the serialiser remembers of the records of one shape (member names in one order, one cut, one
 * check) it wrote last, position by position: where the cut members stand and, for members that were
 * strings or numbers, their last values and member texts (`,"name":value`). Consecutive records share
 * most members (the dataset fields; an artifact's path and kinds), so those texts are made once, not
 * per record, and a run of them is joined once. Only shapes whose names come in code-unit order (the
 * generator's records) are remembered; a text is kept once it is made, so that a name or value that
 * throws leaves nothing behind; texts made without the lone-surrogate check are never given to a call
 * that asks for it.
 */
interface Shape {
  names: readonly string[];
  /** The names come in code-unit order: only then is anything remembered. */
  sorted: boolean;
  wellFormed: boolean;
  cut: readonly string[];
  isCut: boolean[];
  /** `,"name":` by position. */
  nameTexts: (string | undefined)[];
  values: unknown[];
  /** `,"name":value` by position, for the value in `values`. */
  memberTexts: string[];
  /**
   * By position: how often its member text changed (only ever up, so that a sum over a run tells whether any of them
   * did).
   */
  versions: number[];
  /**
   * By position: the last run of members from it whose values were all the remembered ones: its end, the sum of their
   * versions, their texts joined.
   */
  runEnds: number[];
  runVersions: number[];
  runTexts: string[];
}

/** A shape's memory, empty. */
function shapeOf(names: readonly string[], cut: readonly string[], wellFormed: boolean): Shape {
  let sorted = true;
  for (let i = 1; sorted && i < names.length; i++) sorted = names[i - 1]! < names[i]!;
  return {
    names,
    sorted,
    wellFormed,
    cut,
    isCut: names.map((name) => cut.includes(name)),
    nameTexts: [],
    values: [],
    memberTexts: [],
    versions: names.map(() => 0),
    runEnds: [],
    runVersions: [],
    runTexts: [],
  };
}

/**
 * The shapes of the last records written, the latest first: the generator alternates two (folders' containers and
 * targets).
 */
const shapes: Shape[] = [];
const SHAPES_KEPT = 4;

/** The memory of the record's shape (its member names in their order, the cut, the check), made when it is new. */
function shapeFor(record: object, cut: readonly string[], wellFormed: boolean): Shape {
  const names = Object.keys(record);
  for (let at = 0; at < shapes.length; at++) {
    const shape = shapes[at]!;
    if (shape.names.length !== names.length || shape.cut !== cut || shape.wellFormed !== wellFormed) continue;
    let same = true;
    for (let i = 0; same && i < names.length; i++) same = names[i] === shape.names[i];
    if (!same) continue;
    if (at > 0) shapes.unshift(...shapes.splice(at, 1));
    return shape;
  }
  const shape = shapeOf(names, cut, wellFormed);
  shapes.unshift(shape);
  if (shapes.length > SHAPES_KEPT) shapes.pop();
  return shape;
}

/** `,"name":` for the member at position `i` of the shape's names. */
function nameTextAt(shape: Shape, i: number): string {
  let text = shape.nameTexts[i];
  if (text === undefined) {
    text = `,${valueJson(shape.names[i])}:`;
    shape.nameTexts[i] = text;
  }
  return text;
}

/**
 * A plain object whose members can be written one by one (canonicalize writes anything else whole: arrays, `toJSON`,
 * primitives).
 */
function isPlainRecord(record: unknown): record is Record<string, unknown> {
  return (
    typeof record === "object" &&
    record !== null &&
    !Array.isArray(record) &&
    typeof (record as { toJSON?: unknown }).toJSON !== "function"
  );
}

/**
 * The record's line, cut at the values of the members named in `cut`: the parts around them, one
 * more than the cut members present. `parts[0] + text of the first cut value + parts[1] + …` is the
 * line, for whatever values are put there (each value's JCS text, `valueJson`). Members that are
 * undefined are left out, as JSON leaves them out. `wellFormed` as for valueJson. `known`: the JCS texts of some
 * string members, name → exactly `JSON.stringify` of the value (escapedOffsets), written as they are.
 */
export function serializeRecordCut(
  record: Readonly<Record<string, unknown>>,
  cut: readonly string[],
  wellFormed = false,
  known?: Readonly<Record<string, string | undefined>>,
): string[] {
  const shape = shapeFor(record, cut, wellFormed);
  if (!shape.sorted) return serializeSorted(record, cut, wellFormed);
  // The names came in order: so do the values (no look-up by name per member).
  const values = Object.values(record);
  const parts: string[] = [];
  let text = "";
  let i = 0;
  while (i < values.length) {
    const value = values[i];
    if (value === undefined || typeof value === "symbol") i++;
    else if (shape.isCut[i]) {
      parts.push(text + nameTextAt(shape, i++));
      text = "";
    } else if (typeof value !== "string" && typeof value !== "number")
      text += nameTextAt(shape, i++) + valueJson(value, wellFormed);
    else if (value === shape.values[i]) {
      // A run of members whose values are the remembered ones: joined again only when it is not the last run from here,
      // member texts and all.
      let end = i + 1;
      let version = shape.versions[i]!;
      while (
        end < values.length &&
        !shape.isCut[end] &&
        values[end] === shape.values[end] &&
        shape.memberTexts[end] !== undefined
      )
        version += shape.versions[end++]!;
      if (shape.runEnds[i] !== end || shape.runVersions[i] !== version) {
        let run = "";
        for (let k = i; k < end; k++) run += shape.memberTexts[k]!;
        shape.runEnds[i] = end;
        shape.runVersions[i] = version;
        shape.runTexts[i] = run;
      }
      text += shape.runTexts[i]!;
      i = end;
    } else {
      // `known`: the member's JCS text as the caller has it (the generator's units take theirs from their heading's).
      const member = nameTextAt(shape, i) + (known?.[shape.names[i]!] ?? valueJson(value, wellFormed));
      shape.values[i] = value;
      shape.memberTexts[i] = member;
      shape.versions[i]!++;
      text += member;
      i++;
    }
  }
  return withBraces(parts, text);
}

/**
 * Where offsets of `text` fall in `JSON.stringify(text)` (a well-formed string: no lone surrogate): each offset (in
 * ascending order, none past the end) moved by the opening quote and by the characters the escapes before it add
 * (`"` and `\` one each, a control character one as `\n` or five as `\u0001`). So `JSON.stringify(text.slice(a, b))` is
 * `"` + the JSON text's slice between the offsets of `a` and `b` + `"`.
 */
export function escapedOffsets(text: string, offsets: readonly number[]): number[] {
  const moved: number[] = new Array(offsets.length);
  let extra = 1;
  let k = 0;
  for (let i = 0; k < offsets.length; i++) {
    while (k < offsets.length && offsets[k] === i) moved[k++] = i + extra;
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c < 0x20) extra += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) extra++;
  }
  return moved;
}

/**
 * escapedOffsets on bytes, in one pass: where UTF-16 offsets (ascending) of the text whose UTF-8 bytes start at
 * `bytes[from]` fall in those bytes (`bytes`, from `from`), and in the JSON text of the bytes read as Latin-1 (`json`:
 * SourceBytes), the text whose slices a unit's markdown is written from. A loop over the bytes, counting UTF-16 code
 * units (a four-byte sequence is two) and escapes (`"` and `\` one more each, a control character one or five): no
 * offset of the text is converted to bytes apart (bench/RESULTS.md, "Units"). An offset between the two halves of a
 * surrogate pair is taken to the character's end (the offsets asked for are line starts). Undefined when the offsets
 * do not ascend, for the caller to sort them.
 */
export function byteAndJsonOffsets(
  bytes: Uint8Array,
  from: number,
  offsets: readonly number[],
): { bytes: number[]; json: number[] } | undefined {
  const byteAt: number[] = new Array(offsets.length);
  const jsonAt: number[] = new Array(offsets.length);
  const n = bytes.length;
  let extra = 1;
  let units = 0;
  let i = from;
  for (let k = 0; k < offsets.length; k++) {
    const want = offsets[k]!;
    if (want < units) return undefined;
    while (units < want && i < n) {
      const c = bytes[i++]!;
      if (c < 0x80) {
        units++;
        if (c < 0x20) extra += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
        else if (c === 0x22 || c === 0x5c) extra++;
      } else if (c >= 0xc0) units += c >= 0xf0 ? 2 : 1;
    }
    while (i < n && (bytes[i]! & 0xc0) === 0x80) i++; // the rest of the last character
    byteAt[k] = i - from;
    jsonAt[k] = i - from + extra;
  }
  return { bytes: byteAt, json: jsonAt };
}

/** serializeRecordCut for a record whose names do not come in order: sorted, and nothing remembered. */
function serializeSorted(
  record: Readonly<Record<string, unknown>>,
  cut: readonly string[],
  wellFormed: boolean,
): string[] {
  const parts: string[] = [];
  let text = "";
  for (const name of Object.keys(record).sort()) {
    const value = record[name];
    if (value === undefined || typeof value === "symbol") continue;
    text += `,${valueJson(name)}:`;
    if (cut.includes(name)) {
      parts.push(text);
      text = "";
    } else text += valueJson(value, wellFormed);
  }
  return withBraces(parts, text);
}

/**
 * The parts, the last one `text`, with the line's braces and end; every member text starts with its comma, and the
 * line's first member has none.
 */
function withBraces(parts: string[], text: string): string[] {
  parts.push(`${text}}\n`);
  const head = parts[0]!;
  parts[0] = head.startsWith(",") ? `{${head.slice(1)}` : `{${head}`;
  return parts;
}

const NO_CUT: readonly string[] = [];

/** One record as its canonical JSONL line (RFC 8785 + "\n"). */
export function serializeRecord(record: OutputRecord): string {
  if (!isPlainRecord(record)) return `${canonicalize(record)}\n`;
  return serializeRecordCut(record, NO_CUT)[0]!;
}
