/**
 * The one module of src/core that uses Node's `crypto` and `Buffer`: SHA-256, and the conversions
 * between bytes and text that the core needs. Everything else in the core is plain ECMAScript over
 * `Uint8Array` and strings (test/layers.test.ts holds it to that).
 */
import { isUtf8 as nodeIsUtf8, transcode } from "node:buffer";
import type * as NodeCrypto from "node:crypto";
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);
let nodeCrypto: typeof NodeCrypto | undefined;
/**
 * `node:crypto`, loaded on the first call: loading it costs a run 5 to 8 ms (bench/RESULTS.md, "Start-up"), which a
 * command that hashes nothing need not pay (src/node/builtins.ts has the same for the node layer).
 */
function crypto(): typeof NodeCrypto {
  nodeCrypto ??= load("node:crypto") as typeof NodeCrypto;
  return nodeCrypto;
}

// crypto.hash (Node 20.12+) is a one-shot digest, faster than createHash for short inputs (bench/RESULTS.md).
interface OneShot {
  (algorithm: string, data: string | Uint8Array, encoding: "hex" | "latin1"): string;
  (algorithm: string, data: string | Uint8Array, encoding: "buffer"): Uint8Array;
}

/** SHA-256 of `data` as text: `hex`, or `latin1` (a character a byte; "binary" is createHash's name for it). */
function sha256Text(data: string | Uint8Array, encoding: "hex" | "latin1"): string {
  const node = crypto();
  const oneShot = (node as { hash?: OneShot }).hash;
  if (oneShot) return oneShot("sha256", data, encoding);
  return node
    .createHash("sha256")
    .update(data)
    .digest(encoding === "hex" ? "hex" : "binary");
}

/** SHA-256 of the UTF-8 bytes of `data` (or of the bytes given), as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return sha256Text(data, "hex");
}

/**
 * SHA-256 of the UTF-8 bytes of `data` (or of the bytes given), as a string of 32 characters, one a byte (U+0000–U+00FF):
 * for a digest only compared, held by the hundred thousand (48 bytes of heap where its hex is 80).
 */
export function sha256Latin1(data: string | Uint8Array): string {
  return sha256Text(data, "latin1");
}

/** SHA-256 of the UTF-8 bytes of `data` (or of the bytes given), as its 32 bytes. */
export function sha256Bytes(data: string | Uint8Array): Uint8Array {
  const node = crypto();
  const oneShot = (node as { hash?: OneShot }).hash;
  return oneShot ? oneShot("sha256", data, "buffer") : node.createHash("sha256").update(data).digest();
}

/** A SHA-256 fed in pieces (`update`, as often as needed), then read once as lowercase hex (`digest("hex")`). */
export interface Sha256Stream {
  update(data: string | Uint8Array): Sha256Stream;
  digest(encoding: "hex"): string;
}

/**
 * A streaming SHA-256 of the UTF-8 bytes of the strings (or of the bytes) given to `update`: for data that comes in
 * pieces; `sha256Hex` for data at hand.
 */
export function sha256Stream(): Sha256Stream {
  return crypto().createHash("sha256");
}

/** True when the bytes are well-formed UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  return nodeIsUtf8(bytes);
}

/** Up to this many bytes are decoded through the transcoder; a larger text by V8's decoder. */
const TRANSCODE_UP_TO = 2 ** 20;

/**
 * Bytes known to be well-formed UTF-8 (isUtf8), as text: the string `Buffer#toString("utf8")` gives
 * (a test holds it to that). Up to 1 MiB it is made through UTF-16 (the transcoder, then a copy),
 * several times faster than V8's UTF-8 decoder on legislation, whose text is mostly but not all ASCII
 * (bench/stage-costs.js). The transcoder's copy lies outside the heap until it is collected, so a
 * larger text takes V8's decoder: give this pieces of tens of kilobytes (LineReader does).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (process.versions.icu && bytes.length <= TRANSCODE_UP_TO)
    return transcode(bytes, "utf8", "ucs2").toString("utf16le");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"); // a Node built without ICU has no transcoder
}

/**
 * Any bytes as text, as the WHATWG decoder (`new TextDecoder()`) reads them: a leading byte order mark dropped, each
 * sequence that breaks UTF-8 as U+FFFD (a test holds it to that decoder). For bytes not checked first.
 */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Bytes read one byte to one character (Latin-1): offsets in the text are offsets in the bytes. */
export function decodeLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}

/**
 * Writes `text` as UTF-8 into `bytes` at `at` (which must have room: three bytes a UTF-16 code unit); the offset after
 * it. The bytes are those `Buffer.from(text, "utf8")` gives.
 */
export function writeUtf8Into(bytes: Uint8Array, at: number, text: string): number {
  const view = bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // Buffer's own UTF-8 writer (under `Buffer#write`, which checks and dispatches its arguments on each call).
  return at + (view as unknown as { utf8Write(text: string, offset: number): number }).utf8Write(text, at);
}

/** A Buffer for bytes that writeUtf8Into writes into without making a view of them each time. */
export function byteScratch(size: number): Uint8Array {
  return Buffer.allocUnsafeSlow(size);
}

/** The length of `text` in UTF-8 bytes. */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * True when the bytes hold a CR or a NUL, which the markdown parser reads as LF and U+FFFD: two native searches of the
 * bytes, where searching the decoded text took several times as long.
 */
export function hasCrOrNul(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return buffer.indexOf(0x0d) !== -1 || buffer.indexOf(0x00) !== -1;
}
