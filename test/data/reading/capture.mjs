#!/usr/bin/env node
// The expectation of test/reading.test.ts: hostile files, and the reports a given build of the tool
// gives for them, with every reading rule on, each one off, all off, and under tight caps.
//
//   node test/data/reading/capture.mjs inputs               writes the hostile files to inputs/
//   node test/data/reading/capture.mjs expected <checkout>  runs <checkout>'s built CLI and library on
//                                                           them and writes expected.json.gz
//
// expected.json.gz was written from main at commit 9952171 (before reading became one step of the
// engine), built with `npm ci`: the reports the reading pipeline must keep, byte for byte.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const inputs = join(here, "inputs");
const repoRoot = join(here, "../../..");

/** The reading rules, in the order the reader applies them. */
const READING_RULES = [
  "line-length",
  "final-newline",
  "bom",
  "carriage-return",
  "invalid-utf8",
  "blank-line",
  "json-syntax",
  "nesting-depth",
  "record-not-object",
  "duplicate-key",
  "non-canonical",
  "schema",
];


function writeInputs() {
  const fixture = readFileSync(join(repoRoot, ".tooling/citation-targets/privacy-act-1988.jsonl"), "utf8").split("\n").slice(0, -1);
  const german = readFileSync(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), "utf8").split("\n").slice(0, -1);
  const r = (i) => fixture[i];
  const deep = (depth) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;
  const withField = (line, field, raw) => line.replace(new RegExp(`"${field}":("[^"]*"|\\d+|\\[[^\\]]*\\])`), `"${field}":${raw}`);
  const b = (text) => Buffer.from(text, "utf8");
  const bytes = (...parts) => Buffer.concat(parts.map((part) => (typeof part === "string" ? b(part) : Buffer.from(part))));
  mkdirSync(inputs, { recursive: true });
  const files = {
    // Valid UTF-8 throughout: read as text.
    "text-path.jsonl": [
      `\ufeff${r(0)}`,
      `${r(1)}\r`,
      "",
      " \t ",
      "not json",
      '{"a":1,}',
      "[]",
      "null",
      "42",
      '"text"',
      `{"a":${deep(70)}}`,
      r(2).replace('"slug":', '"slug":"x","slug":'),
      r(3).replace('{"', '{ "'),
      r(4).replace("Preliminary", "Pr\\u00e9liminary"),
      withField(r(5), "documentOrder", '"7"'),
      withField(r(6), "versionDate", '"2024-13-01"'),
      withField(r(7), "versionDate", '"2024-13-01"'),
      withField(r(8), "versionDate", '"2024-13-01"'),
      "\ufeff\r",
      "\ufeffnot json",
      "\ufeff[1]",
      r(9).replace('{"', '{"extra":1,').replace(/"headingText":"[^"]*",/, ""),
      "{}",
      "\r",
      `{"a":${deep(63)}}`,
      `{"a":${deep(64)}}`,
      "\ufeff\ufeff{}",
      `${r(10)}\r\r`,
      '{"a":1}\r',
      `{"__proto__":1,"__proto__":2}`,
      '{"a":1E2,"b":1.0,"c":"\\/"}',
      r(11),
    ].join("\n"), // no final newline
    // Not valid UTF-8 as a whole: every line is read as bytes, then decoded one by one.
    "bytes-path.jsonl": bytes(
      `\ufeff${r(0)}\n`,
      `${r(1)}\r\n`,
      r(2).replace("Preliminary", "Pre"),
      [0x97],
      "liminary\n",
      "\ufeff",
      r(3).slice(0, 40),
      [0xc0, 0x80],
      `${r(3).slice(40)}\n`,
      r(4).slice(0, 30),
      [0xff],
      "\r\n",
      "x",
      [0xed, 0xa0, 0x80],
      "\n",
      [0xf4, 0x90, 0x80, 0x80],
      "\n",
      "é—𝄞",
      [0xe2, 0x80],
      "\r\n",
      "\n",
      "not json\n",
      "\r\n",
      `${r(5).replace('{"', '{ "')}\n`,
      `${r(6).replace('"slug":', '"slug":"x","slug":')}\n`,
      `${withField(r(7), "versionDate", '"2024-13-01"')}\n`,
      `${withField(r(8), "versionDate", '"2024-13-01"')}\n`,
      "[1,2]\r\n",
      `{"headingText":"Ä§ü`,
      [0xf8],
      '"}\n',
      "\ufeff\r\n",
      "\ufeff",
      [0x80],
      "\n",
      "\ufeff\ufeff",
      [0xff],
      "\n",
      "a\ufeffb",
      [0xff],
      "\r\n",
      `${german[0]}\n`,
      `{"a":${deep(70)}}\n`,
      r(9),
      [0xc3],
    ),
    // For --max-line-bytes 300: lines longer than the cap, one of them not UTF-8, the last unterminated.
    "long-lines.jsonl": bytes(
      '{"a":1}\n',
      `${r(0)}\n`,
      `${"x".repeat(299)}\n`,
      `${"y".repeat(300)}\n`,
      `${"z".repeat(301)}\n`,
      `${"é".repeat(150)}\n`,
      `${"é".repeat(151)}\n`,
      `${"€".repeat(101)}\r\n`,
      "\ufeff",
      `${"w".repeat(400)}\n`,
      "[0]\n",
      "a".repeat(200),
      [0xff],
      `${"b".repeat(200)}\n`,
      "\n",
      r(1),
    ),
    "long-unterminated.jsonl": `[1]\n${"x".repeat(400)}`,
    "empty.jsonl": "",
    "newline.jsonl": "\n",
    "bom-only.jsonl": "\ufeff",
    "cr-only.jsonl": "\r",
    "blank-unterminated.jsonl": "  ",
    "invalid-unterminated.jsonl": bytes([0xfe]),
    // The wrong kind of file: markdown and a lock manifest given to validate by mistake.
    "notes.md": "# Privacy Act 1988\n\n## Part I—Preliminary\n\nSome text, with a line\n\n- a list\n- of items\n\n```json\n{\"a\":1}\n```\n\nMore text.\n",
    "manifest.lock.json": `${JSON.stringify({ slug: "x", artifacts: [{ path: "a.md" }] }, null, 2)}\n`,
    // Many problems, for --max-stored-problems, and dataset-level fields wrong on every record (folded).
    "many.jsonl": `${[
      ...fixture.slice(0, 12).map((line, i) => (i % 3 === 0 ? "oops" : i % 3 === 1 ? withField(line, "titleId", '"bad id"') : `${line.replace('{"', '{ "')}\r`)),
      ...fixture.slice(12, 24).map((line) => withField(withField(line, "sourceTextUrl", '"http://example.com/"'), "slug", '"other"')),
      ...german.slice(0, 4),
    ].join("\n")}\n`,
    "privacy-act-1988.jsonl": `${fixture.map((line, i) => (i === 20 ? `\ufeff${line}\r` : line)).join("\n")}\n`,
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(inputs, name), content);
  console.log(`wrote ${Object.keys(files).length} files to ${inputs}`);
}

/** The command lines run over every input, each with the exit code and output it gives. */
function cliRuns(files) {
  const base = ["validate", "--no-config", "--no-lock", "--jobs", "1"];
  const off = (ids) => ids.flatMap((id) => ["--rule", `${id}=off`]);
  const runs = [];
  for (const format of ["json", "stylish", "sarif", "github", "junit"]) runs.push([...base, "--format", format, ...files]);
  for (const id of READING_RULES) runs.push([...base, "--format", "json", ...off([id]), ...files]);
  runs.push([...base, "--format", "json", ...off(READING_RULES), ...files]);
  runs.push([...base, "--format", "stylish", ...off(READING_RULES), ...files]);
  runs.push([...base, "--format", "json", ...READING_RULES.flatMap((id) => ["--rule", `${id}=warning`]), ...files]);
  runs.push([...base, "--format", "json", ...off(["json-syntax", "record-not-object"]), ...files]);
  runs.push([...base, "--format", "json", ...off(["duplicate-key", "non-canonical"]), ...files]);
  runs.push([...base, "--format", "json", "--max-line-bytes", "300", ...files]);
  runs.push([...base, "--format", "json", "--max-line-bytes", "300", ...off(["line-length"]), ...files]);
  runs.push([...base, "--format", "json", "--max-depth", "3", ...files]);
  runs.push([...base, "--format", "json", "--max-depth", "3", ...off(["nesting-depth"]), ...files]);
  runs.push([...base, "--format", "json", "--max-stored-problems", "5", ...files]);
  runs.push([...base, "--format", "json", "--max-stored-problems", "5", ...off(["json-syntax", "carriage-return"]), ...files]);
  runs.push([...base, "--format", "json", "--max-stored-problems", "5", "--rule", "schema=warning", ...files]);
  return runs;
}

/** The library's check of each input in small chunks (the reader's runs cut anywhere), with these settings. */
const ENGINE_CASES = [
  { chunk: 1, settings: {} },
  { chunk: 5, settings: {} },
  { chunk: 7, settings: Object.fromEntries(READING_RULES.map((id) => [id, "off"])) },
  { chunk: 64, settings: { bom: "off", "carriage-return": "off", "invalid-utf8": "off" } },
  { chunk: 4096, settings: { schema: "off", "json-syntax": "warning" } },
];

async function writeExpected(checkoutPath) {
  const files = readdirSync(inputs).sort();
  const cli = join(checkoutPath, "bin/citation-targets.js");
  // Run outside any repository (as the test does): paths are then shown relative to the working directory.
  const cwd = mkdtempSync(join(tmpdir(), "reading-"));
  cpSync(inputs, cwd, { recursive: true });
  const runs = cliRuns(files).map((args) => {
    const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", env: { PATH: process.env.PATH, NO_COLOR: "1" }, maxBuffer: 1 << 28 });
    return { args, code: result.status, stdout: result.stdout, stderr: result.stderr };
  });
  rmSync(cwd, { recursive: true, force: true });
  const library = await import(pathToFileURL(join(checkoutPath, "dist/index.js")).href);
  const core = await import(pathToFileURL(join(checkoutPath, "dist/core-api.js")).href);
  const schemaCheck = core.compileRecordSchema(library.buildRecordSchema());
  const engine = [];
  for (const file of files) {
    const content = readFileSync(join(inputs, file));
    for (const { chunk, settings } of ENGINE_CASES) {
      const check = library.createFileCheck({ rules: library.rules, file, schemaCheck, ruleSettings: settings, limits: { maxLineBytes: 300, maxDepth: 5 } });
      for (let at = 0; at < content.length; at += chunk) check.push(content.subarray(at, at + chunk));
      engine.push({ file, chunk, settings, result: check.end() });
    }
  }
  // Gzipped: two megabytes of reports that repeat themselves.
  writeFileSync(join(here, "expected.json.gz"), gzipSync(`${JSON.stringify({ runs, engine }, null, 1)}\n`, { level: 9 }));
  console.log(`wrote ${runs.length} runs and ${engine.length} engine results to ${join(here, "expected.json.gz")}`);
}

const [command, checkout] = process.argv.slice(2);

if (command === "inputs") writeInputs();
else if (command === "expected" && checkout) await writeExpected(checkout);
else {
  console.error("usage: capture.mjs inputs | capture.mjs expected <checkout>");
  process.exit(2);
}
