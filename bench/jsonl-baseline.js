// The JSON baseline of validate's throughput (issue 41): one process, one thread, each file read in 1 MiB chunks,
// split on newlines, `JSON.parse` of each line; nothing else. Timed inside the process, from the first look at the
// inputs to the last parse: no process start, no module loading in it. Prints one JSON line: seconds (that time),
// maxRssMb, files, bytes, records.
//   node bench/jsonl-baseline.js <folder-or-file>...   (a folder: every *.jsonl below it, in path order)
// Also imported (bench/measure.js baseline): `readJsonlBaseline(paths)`.
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
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

/** Reads every file in 1 MiB chunks, splits on LF, JSON.parse of each non-empty line; the time it took, inside. */
export function readJsonlBaseline(paths) {
  const started = process.hrtime.bigint();
  const files = jsonlFiles(paths);
  const buffer = Buffer.allocUnsafe(CHUNK);
  let bytes = 0;
  let records = 0;
  for (const file of files) {
    const fd = openSync(file, "r");
    const decoder = new StringDecoder("utf8");
    let rest = "";
    try {
      for (let n = readSync(fd, buffer, 0, CHUNK, null); n > 0; n = readSync(fd, buffer, 0, CHUNK, null)) {
        bytes += n;
        const text = rest + decoder.write(buffer.subarray(0, n));
        let start = 0;
        for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
          if (end > start) {
            JSON.parse(text.slice(start, end));
            records++;
          }
          start = end + 1;
        }
        rest = text.slice(start);
      }
    } finally {
      closeSync(fd);
    }
    rest += decoder.end();
    if (rest.length > 0) {
      JSON.parse(rest);
      records++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), files: files.length, bytes, records };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(readJsonlBaseline(process.argv.slice(2))));
}
