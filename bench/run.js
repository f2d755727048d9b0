#!/usr/bin/env node
// Benchmarks (never timed tests): each figure is reported as a ratio to a baseline measured in the same run.
//   node bench/run.js [peers] [--quick|--full] [...]   THE DEFAULT (npm run bench; npm run bench:full or
//     npm run bench -- --full): validate against the baseline (read, split, JSON.parse) and
//     @sourcemeta/jsonschema on a big file (quick 125 MB, full 1 GB), a 100 MB file and many small
//     dataset files (quick 1,000, full 5,000), alternating runs, median; see bench/validate-bench.js
//     (its options: --reps N, --no-peer, --only big,100mb,files, --regenerate). Quick: under 2 minutes
//     once its data is made (the first run makes it: about a minute more; full: several minutes more).
//   node bench/run.js validate|generate|startup|all   env: BENCH_MB (validate file size, default 256): the
//     older figures on toy data (validate: createFileCheck in-process on one synthetic file)
//   node bench/run.js realistic [--quick] [...]   every step on a synthetic federal-law corpus (bench/realistic.js;
//     env BENCH_CORPUS_MB, default 150; --quick or BENCH_QUICK=1: 15 MB, under 2 minutes)
// Data is generated under bench/data/ (git-ignored). Each measurement runs in a child process so that
// its peak memory (maxRSS) is its own.
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import canonicalize from "canonicalize";
import { deriveCitationTargetId, deriveTextDigest } from "../dist/index.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const data = join(root, "bench/data");
const first = process.argv[2];
const which = first === undefined || first.startsWith("--") ? "peers" : first;
const MB = Number(process.env.BENCH_MB ?? 256);
mkdirSync(data, { recursive: true });

function measure(script, args = []) {
  const child = spawnSync(process.execPath, [join(root, "bench/measure.js"), script, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(`${script} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").pop());
}

const DIGEST = "7767fae9cb89d323c8c4da7f86644781b2dc2ee58096dfea5015df083f165cea";
const URL_ = "https://www.legislation.gov.au/C2024A00001/2024-07-01/text";

/** A valid citation-targets file of about `mb` megabytes: one artifact with N sections. */
async function writeJsonl(file, mb) {
  const out = createWriteStream(file);
  const body =
    "(1) A person must not do the thing described in this section unless the person holds a licence issued under Part 3. ".repeat(
      3,
    );
  let bytes = 0;
  for (let i = 0; bytes < mb * 1e6; i++) {
    const local = `§-${i + 1}`;
    const markdown = `## § ${i + 1} Section ${i + 1}\n\n${body}\n\n`;
    const address = `bench/code.md#${local}`;
    const line = `${canonicalize({
      artifactRelativePath: "code.md",
      canonicalPath: `code/${local}`,
      citationAddress: address,
      citationTargetId: deriveCitationTargetId(DIGEST, address),
      datasetDigest: DIGEST,
      documentOrder: i,
      headingText: `§ ${i + 1} Section ${i + 1}`,
      headingTrail: [],
      markdown,
      name: "Bench Act",
      schemaVersion: "1.0.0",
      slug: "bench",
      sourceArtifactBlockEndExclusive: 2 * i + 2,
      sourceArtifactBlockStartIndex: 2 * i,
      sourceArtifactKind: "file",
      sourceDocumentPath: "code.md",
      sourceIndexKind: "body-block",
      sourceTextUrl: URL_,
      structuralPath: ["code", local],
      targetKind: "markdown-artifact",
      textDigest: deriveTextDigest(markdown),
      textDigestAlgorithm: "sha256",
      titleId: "B1",
      versionDate: "2024-07-01",
    })}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise((r) => out.once("drain", r));
  }
  await new Promise((r) => out.end(r));
}

function writeSingleFileCode(dir, sections) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const parts = ["---\ntitle: Benchmark code\n---\n# Gesetz über Benchmarks\n"];
  let n = 0;
  for (let k = 1; n < sections; k++) {
    parts.push(`## Kapitel ${k}\n`);
    for (let a = 1; a <= 5 && n < sections; a++) {
      parts.push(`### Abschnitt ${a}\n`);
      for (let s = 0; s < 28 && n < sections; s++, n++) {
        parts.push(
          `#### § ${n + 1} Vorschrift ${n + 1}\n\n(1) ${"Die Behörde entscheidet nach pflichtgemäßem Ermessen über den Antrag. ".repeat(35)}\n\n(2) Absatz zwei.\n`,
        );
      }
    }
  }
  writeFileSync(join(dir, "code.md"), parts.join("\n"));
}

function writeTreeDataset(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < files; i++) {
    const part = Math.floor(i / 1000) + 1;
    const division = Math.floor((i % 1000) / 100) + 1;
    const folder = join(dir, `part-${part}`, `division-${division}`);
    if (i % 100 === 0) {
      mkdirSync(folder, { recursive: true });
      if (i % 1000 === 0) writeFileSync(join(dir, `part-${part}`, "index.md"), `## Part ${part}—Heading ${part}\n`);
      writeFileSync(join(folder, "index.md"), `### Division ${division}—Heading\n`);
    }
    writeFileSync(
      join(folder, `section-${i + 1}.md`),
      `#### ${i + 1} Section ${i + 1}\n\n(1) A person must not do the thing in this section.\n`,
    );
  }
}

const machine = `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = [`machine: ${machine}`];
const say = (text) => {
  lines.push(text);
  console.log(text);
};

if (which === "peers") {
  // Its own script and child processes; the arguments after the mode (or all of them) are passed on.
  const child = spawnSync(
    process.execPath,
    [join(root, "bench/validate-bench.js"), ...process.argv.slice(first === "peers" ? 3 : 2)],
    { stdio: "inherit" },
  );
  process.exit(child.status ?? 1);
}

if (which === "validate" || which === "all") {
  const file = join(data, "bench.jsonl");
  if (!existsSync(file) || Math.abs(statSync(file).size / 1e6 - MB) > MB * 0.05) await writeJsonl(file, MB);
  const size = statSync(file).size / 1e6;
  const baseline = measure("baseline", [file]);
  const full = measure("validate", [file]);
  say(`validate, one ${size.toFixed(0)} MB file (${full.records} records), one core:`);
  say(
    `  baseline (read, split lines, JSON.parse): ${(size / baseline.seconds).toFixed(1)} MB/s, peak RSS ${baseline.maxRssMb} MB`,
  );
  say(
    `  full validate (every rule):               ${(size / full.seconds).toFixed(1)} MB/s, peak RSS ${full.maxRssMb} MB, problems ${full.problems}`,
  );
  say(`  ratio to baseline: ${(baseline.seconds / full.seconds).toFixed(2)}x`);
}

if (which === "generate" || which === "all") {
  const code = join(data, "single-file");
  writeSingleFileCode(code, 700);
  const codeSize = statSync(join(code, "code.md")).size / 1e6;
  const single = measure("generate", [code]);
  say(
    `generate, single-file code ${codeSize.toFixed(1)} MB, ${single.records} records: lock ${single.lockSeconds.toFixed(2)} s, generate ${single.generateSeconds.toFixed(2)} s, peak RSS ${single.maxRssMb} MB`,
  );
  for (const files of [3000, 30000]) {
    const tree = join(data, `tree-${files}`);
    writeTreeDataset(tree, files);
    const result = measure("generate", [tree]);
    say(
      `generate, tree of ${files} section files, ${result.records} records: lock ${result.lockSeconds.toFixed(2)} s, generate ${result.generateSeconds.toFixed(2)} s (${((result.generateSeconds / files) * 1e6).toFixed(0)} µs per file), peak RSS ${result.maxRssMb} MB`,
    );
  }
}

if (which === "startup" || which === "all") {
  const empty = join(data, "empty.jsonl");
  writeFileSync(empty, "");
  const time = (args) => {
    const runs = [];
    for (let i = 0; i < 7; i++) {
      const t = process.hrtime.bigint();
      execFileSync(process.execPath, args, { stdio: "ignore" });
      runs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return runs.sort((a, b) => a - b)[3];
  };
  const bare = time(["-e", "0"]);
  const validateEmpty = time([join(root, "bin/citation-targets.js"), "validate", "--no-lock", empty]);
  say(
    `start-up (median of 7): bare node ${bare.toFixed(0)} ms; validate of an empty file ${validateEmpty.toFixed(0)} ms (+${(validateEmpty - bare).toFixed(0)} ms)`,
  );
}

if (which === "realistic" || which === "all") {
  // Its own script and child processes; arguments after the mode are passed on (e.g. --quick, --mb 30).
  const child = spawnSync(process.execPath, [join(root, "bench/realistic.js"), ...process.argv.slice(3)], {
    stdio: "inherit",
  });
  if (child.status !== 0) process.exitCode = child.status ?? 1;
}

if (process.env.BENCH_WRITE) writeFileSync(join(data, "last-run.txt"), `${lines.join("\n")}\n`);
