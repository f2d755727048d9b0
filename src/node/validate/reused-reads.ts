/**
 * validate's reads of a JSONL file into one buffer of this thread, used again for every file and every chunk, rather
 * than a new buffer each (`readFileSync`, a read stream's chunks). Memory a process touches for the first time is
 * dear on a virtual machine: on the CI machine kind, reading 298 MB of JSONL into a new buffer a file and checking it
 * cost ten times what the same reads into one buffer did (bench/RESULTS.md, "A publisher's repository").
 *
 * The engine keeps no reference to the bytes it is given, except the part of a last line that has no LF yet: that part
 * is handed over as a copy of its own (`pushReused`), so the buffer can take the next bytes at once.
 */
import { readFileSync, readSync } from "node:fs";

/** The size of the buffer, and of a chunk of a file read in pieces. */
export const CHUNK_BYTES = 1 << 20;

let shared: Buffer | undefined;

/** This thread's buffer, made on first use. */
function buffer(): Buffer {
  shared ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
  return shared;
}

/**
 * The bytes of a file of `size` bytes (under CHUNK_BYTES) open on `fd`, as `readFileSync(fd)` reads them: up to the
 * size its descriptor gave when opened (a file of size 0, such as one of /proc, to its end, by readFileSync). Valid
 * until the next read of this thread.
 */
export function readWhole(fd: number, size: number): Uint8Array {
  if (size === 0 || size > CHUNK_BYTES) return readFileSync(fd);
  const into = buffer();
  let at = 0;
  while (at < size) {
    const read = readSync(fd, into, at, size - at, null);
    if (read === 0) break;
    at += read;
  }
  return into.subarray(0, at);
}

/** The next chunk of the file open on `fd` (empty at its end). Valid until the next read of this thread. */
export function readChunk(fd: number): Uint8Array {
  const into = buffer();
  return into.subarray(0, readSync(fd, into, 0, CHUNK_BYTES, null));
}

/**
 * Hands `bytes` (of this thread's buffer) to `push`: the complete lines as they lie, and what follows the last LF, if
 * anything, as a copy (the engine keeps it until its line ends).
 */
export function pushReused(bytes: Uint8Array, push: (chunk: Uint8Array) => void): void {
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end > 0) push(bytes.subarray(0, end));
  if (end < bytes.length) push(new Uint8Array(bytes.subarray(end))); // a copy (Buffer#slice would be a view)
}
