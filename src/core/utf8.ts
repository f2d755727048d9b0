/** Byte offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) (need = 1), (min = 0x80);
    else if (b === 0xe0) (need = 2), (min = 0xa0);
    else if (b === 0xed) (need = 2), (min = 0x80), (max = 0x9f);
    else if (b >= 0xe1 && b <= 0xef) (need = 2), (min = 0x80);
    else if (b === 0xf0) (need = 3), (min = 0x90);
    else if (b >= 0xf1 && b <= 0xf3) (need = 3), (min = 0x80);
    else if (b === 0xf4) (need = 3), (min = 0x80), (max = 0x8f);
    else return i;
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
