// One measurement in its own process: prints a JSON line with seconds, peak RSS and counts.
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildRecordSchema, compileRecordSchema, createFileCheck, generateRecords, lock, serializeRecord } from "../dist/index.js";

const [kind, target] = process.argv.slice(2);
const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
const started = process.hrtime.bigint();
const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;

if (kind === "baseline") {
  // The baseline of brief section 7: read the file, split lines, JSON.parse each.
  let rest = "";
  let records = 0;
  for await (const chunk of createReadStream(target, { highWaterMark: 1 << 20, encoding: "utf8" })) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) {
      if (!line) continue;
      JSON.parse(line);
      records++;
    }
  }
  console.log(JSON.stringify({ seconds: seconds(), maxRssMb: peak(), records }));
} else if (kind === "validate") {
  const check = createFileCheck({ file: "bench.jsonl", schemaCheck: compileRecordSchema(buildRecordSchema()) });
  for await (const chunk of createReadStream(target, { highWaterMark: 1 << 20 })) check.push(chunk);
  const result = check.end();
  console.log(JSON.stringify({ seconds: seconds(), maxRssMb: peak(), records: result.records, problems: result.problems.length }));
} else if (kind === "generate") {
  const t0 = seconds();
  const { manifest } = await lock({ dir: target, slug: "bench", titleId: "B1", name: "Bench", versionDate: "2024-07-01", sourceTextUrl: "https://www.legislation.gov.au/B1/text", check: true });
  const t1 = seconds();
  let records = 0;
  let bytes = 0;
  for await (const record of generateRecords(manifest, (path) => readFile(join(target, ...path.split("/"))))) {
    bytes += serializeRecord(record).length;
    records++;
  }
  console.log(JSON.stringify({ lockSeconds: t1 - t0, generateSeconds: seconds() - t1, maxRssMb: peak(), records, bytes }));
}
