/** CR LF read as LF (a Windows checkout with core.autocrlf=true; line-endings.ts). No heavy import: validate uses it. */
import { sha256Hex } from "../../core/bytes.js";

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

/**
 * True when bytes that miss their pin are what it pins once CR LF is read as LF: saved with CR LF, otherwise the same
 * (lock, update, generate and validate tell this case apart from a change, and none of them pins it).
 */
export function pinnedOnceLf(bytes: Buffer, pinned: string): boolean {
  return bytes.includes("\r\n") && sha256Hex(withoutCr(bytes)) === pinned;
}
