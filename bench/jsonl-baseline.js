// The JSON baseline of validate's throughput (issue 41): one process, one thread, each file read in 1 MiB chunks,
// split on newlines, `JSON.parse` of each line; nothing else. Each line is decoded by itself (`toString("utf8")` of its
// bytes): decoding a whole MiB at once, with V8's decoder, takes about three times as long as the parsing on this
// corpus (most of its chunks hold a „ or – that makes the whole text two-byte), and is no part of the JSON limit. Timed inside the process, from the first look at the
// inputs to the last parse: no process start, no module loading in it. Prints one JSON line: seconds (that time),
// maxRssMb, files, bytes, records.
//   node bench/jsonl-baseline.js <folder-or-file>...   (a folder: every *.jsonl below it, in path order)
// Also imported (bench/measure.js baseline): `readJsonlBaseline(paths)`.
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CHUNK = 1 << 20;

/** The files named, folders expanded to every *.jsonl below them (sorted by name, as validate walks them). */
function jsonlFiles(paths) {
  const files = [];
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".jsonl")) files.push(path);
    }
  };
  for (const path of paths) {
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
  return files;
}

/**
 * Reads every file in 1 MiB chunks, splits each chunk's bytes on LF, decodes each line (UTF-8) and JSON.parse's it (a
 * line cut by a chunk's end is carried over to the next); the time it took, inside.
 */
export function readJsonlBaseline(paths) {
  const started = process.hrtime.bigint();
  const files = jsonlFiles(paths);
  const buffer = Buffer.allocUnsafe(CHUNK);
  let bytes = 0;
  let records = 0;
  const parse = (text) => {
    if (text.length === 0) return;
    JSON.parse(text);
    records++;
  };
  for (const file of files) {
    const fd = openSync(file, "r");
    let carry; // the bytes of a line begun in an earlier chunk
    try {
      for (let n = readSync(fd, buffer, 0, CHUNK, null); n > 0; n = readSync(fd, buffer, 0, CHUNK, null)) {
        bytes += n;
        let start = 0;
        for (let end = buffer.indexOf(0x0a); end !== -1 && end < n; end = buffer.indexOf(0x0a, start)) {
          if (carry === undefined) parse(buffer.toString("utf8", start, end));
          else {
            parse(Buffer.concat([carry, buffer.subarray(0, end)]).toString("utf8"));
            carry = undefined;
          }
          start = end + 1;
        }
        if (start < n)
          carry =
            carry === undefined
              ? Buffer.from(buffer.subarray(start, n))
              : Buffer.concat([carry, buffer.subarray(start, n)]);
      }
    } finally {
      closeSync(fd);
    }
    if (carry !== undefined) parse(carry.toString("utf8"));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), files: files.length, bytes, records };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(readJsonlBaseline(process.argv.slice(2))));
}
