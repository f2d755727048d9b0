// The baseline of validate's throughput (the brief, section 7): read every file given, split it into
// lines and JSON.parse each, on one thread, nothing else. Prints one JSON line: files, bytes, lines.
//   node bench/jsonl-baseline.js <folder-or-file>...
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const files = process.argv.slice(2).flatMap((path) =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith(".jsonl"))
        .sort()
        .map((name) => join(path, name))
    : [path],
);
let bytes = 0;
let lines = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  bytes += Buffer.byteLength(text);
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    JSON.parse(text.slice(start, end));
    lines++;
    start = end + 1;
  }
}
console.log(JSON.stringify({ files: files.length, bytes, lines }));
