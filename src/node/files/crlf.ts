/** CR LF read as LF (a Windows checkout with core.autocrlf=true; line-endings.ts). No heavy import: validate uses it. */

/** The bytes with each CR LF as LF. */
export function withoutCr(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) continue;
    out[at++] = bytes[i]!;
  }
  return out.subarray(0, at);
}
