// One measurement in its own process: prints a JSON line with seconds, peak RSS and counts.
//   node bench/measure.js baseline <file|folder>...   read, split lines, JSON.parse each line, one thread
//     (a folder: every *.jsonl below it, in path order; files up to 16 MiB read whole, bigger ones streamed
//     in 1 MiB chunks); loads nothing of the tool, so its wall time is a bare program's.
//   node bench/measure.js validate <file>   |   node bench/measure.js generate <datasetDir>
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const [kind, ...targets] = process.argv.slice(2);
const target = targets[0];
const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
const started = process.hrtime.bigint();
const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;

/** The files named, folders expanded to every *.jsonl below them (sorted, as validate walks them). */
function jsonlFiles(paths) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
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

if (kind === "baseline") {
  // The baseline of brief section 7: read the file(s), split lines, JSON.parse each.
  let records = 0;
  let bytes = 0;
  const files = jsonlFiles(targets);
  const parse = (lines) => {
    for (const line of lines) {
      if (!line) continue;
      JSON.parse(line);
      records++;
    }
  };
  for (const file of files) {
    const size = statSync(file).size;
    bytes += size;
    // A small file in one read (a stream per file costs more than the parsing), a big one streamed.
    if (size <= 16 << 20) {
      parse(readFileSync(file, "utf8").split("\n"));
      continue;
    }
    let rest = "";
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20, encoding: "utf8" })) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      parse(lines);
    }
    parse([rest]);
  }
  console.log(JSON.stringify({ seconds: seconds(), maxRssMb: peak(), records, files: files.length, bytes }));
} else if (kind === "validate") {
  const { buildRecordSchema, compileRecordSchema, createFileCheck, rules } = await import("../dist/index.js");
  const check = createFileCheck({ rules, file: "bench.jsonl", schemaCheck: compileRecordSchema(buildRecordSchema()) });
  for await (const chunk of createReadStream(target, { highWaterMark: 1 << 20 })) check.push(chunk);
  const result = check.end();
  console.log(
    JSON.stringify({ seconds: seconds(), maxRssMb: peak(), records: result.records, problems: result.problems.length }),
  );
} else if (kind === "generate") {
  const { generateRecords, lock, serializeRecord } = await import("../dist/index.js");
  const t0 = seconds();
  const { manifest } = await lock({
    dir: target,
    slug: "bench",
    titleId: "B1",
    name: "Bench",
    versionDate: "2024-07-01",
    sourceTextUrl: "https://www.legislation.gov.au/B1/text",
    check: true,
  });
  const t1 = seconds();
  let records = 0;
  let bytes = 0;
  for await (const record of generateRecords(manifest, (path) => readFile(join(target, ...path.split("/"))))) {
    bytes += serializeRecord(record).length;
    records++;
  }
  console.log(
    JSON.stringify({ lockSeconds: t1 - t0, generateSeconds: seconds() - t1, maxRssMb: peak(), records, bytes }),
  );
}
