// One measurement in its own process: prints a JSON line with seconds, peak RSS and counts.
//   node bench/measure.js baseline <file|folder>...   bench/jsonl-baseline.js: each file read in 1 MiB chunks, split
//     on LF, JSON.parse each line, one thread (a folder: every *.jsonl below it, in path order); its seconds are
//     timed inside the process, no process start in them (issue 41).
//   node bench/measure.js validate <file>   |   node bench/measure.js generate <datasetDir>
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const [kind, ...targets] = process.argv.slice(2);
const target = targets[0];
const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
const started = process.hrtime.bigint();
const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;

if (kind === "baseline") {
  // The baseline of issue 41 (bench/jsonl-baseline.js): 1 MiB chunks, split on LF, JSON.parse each line, one thread;
  // its seconds are timed inside, from the first look at the inputs to the last parse (no process start).
  const { readJsonlBaseline } = await import("./jsonl-baseline.js");
  console.log(JSON.stringify(readJsonlBaseline(targets)));
} else if (kind === "validate") {
  const { buildRecordSchema, compileRecordSchema, createFileCheck, rules } = await import("../dist/index.js");
  const check = createFileCheck({ rules, file: "bench.jsonl", schemaCheck: compileRecordSchema(buildRecordSchema()) });
  for await (const chunk of createReadStream(target, { highWaterMark: 1 << 20 })) check.push(chunk);
  const result = check.end();
  console.log(
    JSON.stringify({ seconds: seconds(), maxRssMb: peak(), records: result.records, problems: result.problems.length }),
  );
} else if (kind === "generate") {
  const { generateRecords, lock } = await import("../dist/index.js");
  const { serializeRecord } = await import("../dist/core-api.js");
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
