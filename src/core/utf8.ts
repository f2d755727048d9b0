/**
 * UTF-8 (RFC 3629): the position of the first bad byte. The check (isUtf8), the decoder every reader of JSON Lines
 * uses (decodeUtf8, for bytes checked first) and the lenient one for bytes that were not (decodeUtf8Lenient) are
 * bytes.ts's, Node's.
 */

/**
 * Byte offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF); the length when
 * none does.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // How many continuation bytes follow the lead byte, and the range the first of them must be in.
    const lead = leadByte(b);
    if (lead === undefined) return i;
    const { need, min, max } = lead;
    const second = bytes[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

/**
 * The shape of a UTF-8 sequence by its lead byte (RFC 3629, table 3-7 of Unicode): undefined for a byte that cannot
 * lead one.
 */
function leadByte(b: number): { need: number; min: number; max: number } | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { need: 1, min: 0x80, max: 0xbf };
  if (b === 0xe0) return { need: 2, min: 0xa0, max: 0xbf };
  if (b === 0xed) return { need: 2, min: 0x80, max: 0x9f };
  if (b >= 0xe1 && b <= 0xef) return { need: 2, min: 0x80, max: 0xbf };
  if (b === 0xf0) return { need: 3, min: 0x90, max: 0xbf };
  if (b >= 0xf1 && b <= 0xf3) return { need: 3, min: 0x80, max: 0xbf };
  if (b === 0xf4) return { need: 3, min: 0x80, max: 0x8f };
  return undefined;
}

/**
 * Why the bytes of the markdown file `path` are not UTF-8, where: the line of the first bad byte, the byte and its place
 * in the line (a file saved in Latin-1 or Windows-1252 says so at its first umlaut).
 */
export function notUtf8Message(path: string, bytes: Uint8Array): string {
  const at = firstInvalidUtf8(bytes);
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++)
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, "0");
  return `${path}: not valid UTF-8: line ${line}, byte 0x${byte} at byte ${at - lineStart + 1} of the line (saved as Latin-1 or Windows-1252? save it as UTF-8)`;
}
