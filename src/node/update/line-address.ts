/**
 * The citationAddress of a generated line, read from its bytes without parsing the record: for `update` and `adopt` of
 * a large dataset with no old file (or none of whose records is left to compare), where every new record is only
 * "added" and its address is all the comparison needs. A line as generate writes it is the record's canonical JSON
 * (RFC 8785: members sorted by name, no white space), so the members before `citationAddress` are the few whose names
 * sort before it, each a string. Anything else (a member of another kind first, a name after it, bytes that are not
 * such JSON) gives undefined, and the caller parses the line as before. For a line generate wrote (each name once), the
 * address is the one JSON.parse gives.
 */
import { decodeUtf8 } from "../../core/bytes.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ADDRESS = "citationAddress";

/** The offset after the JSON string that starts at `at` (its opening quote), or -1 when none ends in `bytes`. */
function stringEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== QUOTE) return -1;
  for (let i = at + 1; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i + 1;
  }
  return -1;
}

/** The text of the JSON string from `from` to `to` (its quotes included), or undefined when it is not one. */
function stringValue(bytes: Uint8Array, from: number, to: number): string | undefined {
  try {
    const value: unknown = JSON.parse(decodeUtf8(bytes.subarray(from, to)));
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The line's citationAddress when its first members are strings whose names sort before it; else undefined. */
export function lineAddress(bytes: Uint8Array): string | undefined {
  if (bytes[0] !== 0x7b) return undefined; // {
  let at = 1;
  for (;;) {
    const nameEnd = stringEnd(bytes, at);
    if (nameEnd === -1 || bytes[nameEnd] !== 0x3a) return undefined; // :
    const name = stringValue(bytes, at, nameEnd);
    if (name === undefined || name > ADDRESS) return undefined;
    const valueEnd = stringEnd(bytes, nameEnd + 1);
    if (valueEnd === -1) return undefined;
    if (name === ADDRESS) return stringValue(bytes, nameEnd + 1, valueEnd);
    if (bytes[valueEnd] !== 0x2c) return undefined; // ,
    at = valueEnd + 1;
  }
}
