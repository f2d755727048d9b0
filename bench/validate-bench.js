#!/usr/bin/env node
// validate against the baseline and a peer (issue item 4), in one run: what `npm run bench` runs.
//
// node bench/validate-bench.js [--quick | --full] [--reps N] [--no-peer] [--only big,100mb,files] [--regenerate] npm
// run bench quick (the default): a 125 MB file, the 100 MB file, 1,000 small files; 3 repetitions npm run bench:full
// (or npm run bench -- --full): a 1 GB file, the 100 MB file, 5,000 small files; 5 repetitions
//
// Inputs (made once, cached under bench/data/validate/, remade when missing or when the corpus changed, or
// with --regenerate): real output of the tool on the synthetic federal-law corpus of bench/corpus.js —
//   - one big JSONL (1 GB; quick: 125 MB) and one of 100 MB: each ONE dataset, a corpus of the right size
//     locked and generated with the CLI (`lock`, then `generate`), as bench/realistic.js does;
//   - 5,000 dataset files of 10–200 KB (quick: 1,000 of them, every fifth): each law of a further corpus
//     as its own dataset (slug from the law, file `<slug>.jsonl`), locked and generated in one process
//     through the library (dist/index.js), laws whose JSONL falls outside 10–200 KB skipped;
//   - one tiny dataset file for the start-up figure.
// Contenders, run ALTERNATING (A B C D E, A B C D E, …), each run a child process, median of the runs:
//   1. baseline: `node bench/measure.js baseline <file|folder>`: each file read in 1 MiB chunks, split lines, JSON.parse
//      each, one thread, its time taken inside its process (no process start: issue 41's baseline);
//   2. `node bin/citation-targets.js validate --no-lock <file|folder>` (every rule; its own thread count),
//      and the same with `--jobs 1` (one core);
//   3. @sourcemeta/jsonschema 16 (native binary; npm-installed into bench/data/peers at bench time, never
//      into the project): `jsonschema validate bench/data/schema.json <file.jsonl | the files>`, and with
//      `--fast`; the schema is the one `citation-targets schema` prints. If it does not install, the bench
//      says so and goes on without it.
// Per run: wall seconds (from this process), MB/s, ratio to the baseline's throughput, peak RSS
// (/usr/bin/time -f %M when present; else the child's own maxRSS via bench/rss-hook.cjs for node, VmHWM
// polled from /proc for the native peer), exit code and problems/records found (every contender must find
// the data clean). Then start-up (validate --no-lock of the tiny file vs `node -e 0`), the identifier sets'
// memory (for the RSS target) and the targets. Report: stdout, bench/data/validate-last-run.txt and .json
// (and validate-last-quick-run.* or validate-last-full-run.*, the last run of each mode).
// Exit code 1 when a check failed (a contender did not find the data clean, counts disagree, a crash).
import { spawn, spawnSync } from "node:child_process";
import {
  createReadStream,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureCorpus } from "./corpus.js";
import { CORPUS_DATASET_FLAGS } from "./dataset-flags.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const data = join(root, "bench/data");
const work = join(data, "validate");
const cli = join(root, "bin/citation-targets.js");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};

// ---------------------------------------------------------------- helper mode: identifier-set memory
// `node --expose-gc bench/validate-bench.js --idsets <file>`: the heap that validate's two identifier sets
// (unique-citation-address, unique-citation-target-id: Map<string, line>) take for this file.
if (args[0] === "--idsets") {
  const gc = globalThis.gc ?? (() => {});
  let addresses = new Map();
  let ids = new Map();
  let rest = "";
  let line = 0;
  for await (const chunk of createReadStream(args[1], { highWaterMark: 1 << 20, encoding: "utf8" })) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const text of lines) {
      line++;
      const record = JSON.parse(text);
      addresses.set(record.citationAddress, line);
      ids.set(record.citationTargetId, line);
    }
  }
  // The sets' retained size: the heap with them, less the heap once they are dropped.
  gc();
  const kept = addresses.size + ids.size;
  const withSets = process.memoryUsage().heapUsed;
  addresses = ids = undefined;
  gc();
  const without = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ records: line, idsetsMb: (withSets - without) / 1e6, kept }));
  process.exit(0);
}

const full = args.includes("--full") || process.env.BENCH_FULL === "1";
const reps = Number(option("--reps") ?? (full ? 5 : 3));
const usePeer = !args.includes("--no-peer");
const only = option("--only")?.split(",");
const regenerate = args.includes("--regenerate");
const SEED = "realistic-1";
// Markdown to JSONL is about 1 : 2.09 on this corpus (150.2 MB → 313.8 MB), so these corpus sizes give
// about 1 GB, 125 MB and 100 MB of JSONL.
const BIG = full
  ? { key: "big", title: "1 GB JSONL file", corpusMb: 480 }
  : { key: "big", title: "quick mode's stand-in for 1 GB", corpusMb: 60 };
const MID = { key: "100mb", title: "100 MB JSONL file", corpusMb: 48 };
const FILES = {
  key: "files",
  title: full ? "5,000 dataset files of 10–200 KB" : "1,000 dataset files of 10–200 KB (quick mode; full: 5,000)",
  count: full ? 5000 : 1000,
};
const FILES_CORPUS_MB = 200; // ~8,850 laws, of which ~6,400 give 10–200 KB of JSONL
const MIN_FILE = 10_000;
const MAX_FILE = 200_000;

mkdirSync(work, { recursive: true });

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const hook = join(root, "bench/rss-hook.cjs");
const machine = `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
const git = (...a) => spawnSync("git", a, { cwd: root, encoding: "utf8" }).stdout?.trim() || "unknown";
const commit = git("rev-parse", "--short", "HEAD");
const dirty = git("status", "--porcelain", "--", "src").length > 0;
const started = Date.now();
const out = [];
const say = (text = "") => {
  out.push(text);
  console.log(text);
};
const failures = [];
const fail = (text) => {
  failures.push(text);
  say(`FAILED: ${text}`);
};
const rel = (path) => relative(root, path) || ".";
const fmt = (x, digits = 2) => (x === undefined || x === null || Number.isNaN(x) ? "–" : x.toFixed(digits));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------- running one child

/** Runs `command ...commandArgs` once: wall seconds from here, peak RSS (MB), exit code, output (the first MB). */
function runOnce(command, commandArgs, { cwd = root } = {}) {
  return new Promise((resolveRun) => {
    const rssFile = join(work, `.rss-${process.pid}`);
    rmSync(rssFile, { force: true });
    const isNode = command === process.execPath;
    let file = command;
    let argv = commandArgs;
    let rssSource;
    if (TIME) {
      file = TIME;
      argv = ["-f", "%M", "-o", rssFile, command, ...commandArgs];
      rssSource = "time";
    } else if (isNode) {
      argv = ["--require", hook, ...commandArgs];
      rssSource = "hook";
    } else rssSource = "proc";
    const load = loadavg()[0];
    const t0 = process.hrtime.bigint();
    const child = spawn(file, argv, {
      cwd,
      env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      if (stdout.length < 1 << 20) stdout += d;
    });
    child.stderr.on("data", (d) => {
      if (stderr.length < 1 << 20) stderr += d;
    });
    let hwmKb = 0;
    let poll;
    if (rssSource === "proc") {
      poll = setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
          if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
        } catch {}
      }, 10);
    }
    child.on("error", (error) => {
      clearInterval(poll);
      resolveRun({ seconds: Number.NaN, status: -1, stdout, stderr: String(error), load });
    });
    child.on("close", (status, signal) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      clearInterval(poll);
      let maxRssMb;
      try {
        if (rssSource === "time") {
          const last = readFileSync(rssFile, "utf8").trim().split("\n").pop();
          maxRssMb = Number(last) / 1024;
        } else if (rssSource === "hook") maxRssMb = JSON.parse(readFileSync(rssFile, "utf8")).maxRssMb;
        else maxRssMb = hwmKb / 1024;
      } catch {}
      rmSync(rssFile, { force: true });
      resolveRun({ seconds, maxRssMb, status: signal ? `signal ${signal}` : status, stdout, stderr, load, rssSource });
    });
  });
}

function runSync(label, command, commandArgs, options = {}) {
  const t0 = process.hrtime.bigint();
  const child = spawnSync(command, commandArgs, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26, ...options });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (child.status !== 0)
    throw new Error(
      `${label} failed (exit ${child.status ?? child.signal}): ${command} ${commandArgs.join(" ")}\n${(child.stderr || child.stdout || "").slice(0, 4000)}`,
    );
  return { ...child, seconds };
}

// ---------------------------------------------------------------- data

/** One dataset JSONL made by the CLI from a corpus of `corpusMb` MB (cached with the corpus digest). */
function ensureJsonl(input) {
  const corpusDir = join(work, `corpus-${input.corpusMb}mb`);
  const corpus = ensureCorpus({ mb: input.corpusMb, seed: SEED, dir: corpusDir });
  if (!corpus.cached)
    say(
      `  corpus ${rel(corpusDir)}: ${corpus.files} laws, ${fmt(corpus.bytes / 1e6, 1)} MB, written in ${fmt(corpus.generateSeconds, 1)} s`,
    );
  const outDir = join(work, `jsonl-${input.corpusMb}mb`);
  const jsonl = join(outDir, "bundesrecht.jsonl");
  const metaFile = join(outDir, "meta.json");
  const meta = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, "utf8")) : undefined;
  if (
    regenerate ||
    !meta ||
    meta.corpusDigest !== corpus.digest ||
    !existsSync(jsonl) ||
    statSync(jsonl).size !== meta.bytes
  ) {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const manifest = join(outDir, "bundesrecht.lock.json");
    const locked = runSync("lock", process.execPath, [cli, "lock", corpusDir, ...CORPUS_DATASET_FLAGS, "-o", manifest]);
    const generated = runSync("generate", process.execPath, [cli, "generate", manifest, "-o", jsonl]);
    const records = Number(/\((\d+) records\)/.exec(generated.stdout + generated.stderr)?.[1] ?? Number.NaN);
    writeFileSync(
      metaFile,
      `${JSON.stringify({ corpusDigest: corpus.digest, corpusMb: input.corpusMb, corpusBytes: corpus.bytes, laws: corpus.files, records, bytes: statSync(jsonl).size, commit, made: new Date().toISOString() }, null, 2)}\n`,
    );
    say(
      `  ${rel(jsonl)}: lock ${fmt(locked.seconds, 1)} s, generate ${fmt(generated.seconds, 1)} s (${fmt(corpus.bytes / 1e6 / generated.seconds, 1)} MB/s of markdown)`,
    );
  }
  const m = JSON.parse(readFileSync(metaFile, "utf8"));
  const title =
    input.key === "big" && !full ? `${Math.round(m.bytes / 1e6)} MB JSONL file (${input.title})` : input.title;
  return {
    ...input,
    title,
    paths: [jsonl],
    display: rel(jsonl),
    bytes: m.bytes,
    records: m.records,
    files: 1,
    corpusMb: m.corpusBytes / 1e6,
    laws: m.laws,
    peerCwd: root,
    peerArgs: [rel(jsonl)],
  };
}

const datasetFields = (slug, heading) => ({
  slug,
  titleId: slug.toUpperCase().replaceAll("-", "_"),
  name: heading,
  versionDate: "2024-12-31",
  sourceTextUrl: `https://www.legislation.gov.au/${slug.toUpperCase()}/2024-12-31/text`,
});

/** One dataset per law of a corpus, in one process through the library: `<slug>.jsonl` in `outDir`. */
async function makeDatasetFile(lib, lawDir, slug) {
  const text = readFileSync(join(lawDir, "index.md"), "utf8");
  const heading = /^# (.+)$/m.exec(text)?.[1] ?? slug;
  const { manifest } = await lib.lock({ dir: lawDir, ...datasetFields(slug, heading), check: true });
  const lines = [];
  for await (const record of lib.generateRecords(manifest, (path) =>
    lib.readArtifact(join(lawDir, ...path.split("/"))),
  ))
    lines.push(lib.serializeRecord(record));
  return { text: lines.join(""), records: lines.length };
}

async function ensureFiles(input) {
  const dir5000 = join(work, "files-5000");
  const metaFile = join(work, "files-5000.json");
  const corpusDir = join(work, `corpus-files-${FILES_CORPUS_MB}mb`);
  const corpus = ensureCorpus({ mb: FILES_CORPUS_MB, seed: "files-1", dir: corpusDir });
  let meta = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, "utf8")) : undefined;
  if (
    regenerate ||
    !meta ||
    meta.corpusDigest !== corpus.digest ||
    !existsSync(dir5000) ||
    readdirSync(dir5000).length !== meta.files.length
  ) {
    const t0 = process.hrtime.bigint();
    const index = await import("../dist/index.js");
    const { serializeRecord } = await import("../dist/core-api.js");
    const { readFile } = await import("node:fs/promises");
    const lib = { ...index, serializeRecord, readArtifact: readFile };
    rmSync(dir5000, { recursive: true, force: true });
    mkdirSync(dir5000, { recursive: true });
    const files = [];
    let skipped = 0;
    const laws = readdirSync(corpusDir).sort();
    for (const law of laws) {
      if (files.length === 5000) break;
      const slug = law.replaceAll("_", "-");
      const made = await makeDatasetFile(lib, join(corpusDir, law), slug);
      const bytes = Buffer.byteLength(made.text);
      if (bytes < MIN_FILE || bytes > MAX_FILE) {
        skipped++;
        continue;
      }
      writeFileSync(join(dir5000, `${slug}.jsonl`), made.text);
      files.push({ name: `${slug}.jsonl`, bytes, records: made.records });
    }
    if (files.length < 5000)
      throw new Error(`only ${files.length} laws of ${rel(corpusDir)} give 10–200 KB of JSONL; raise FILES_CORPUS_MB`);
    meta = {
      corpusDigest: corpus.digest,
      lawsTried: files.length + skipped,
      skipped,
      files,
      seconds: Number(process.hrtime.bigint() - t0) / 1e9,
      commit,
    };
    writeFileSync(metaFile, `${JSON.stringify(meta)}\n`);
    say(
      `  ${rel(dir5000)}: 5,000 datasets made in ${fmt(meta.seconds, 1)} s (${skipped} laws outside 10–200 KB skipped)`,
    );
  }
  let dir = dir5000;
  let chosen = meta.files;
  if (input.count !== 5000) {
    // every (5000 / count)-th file, hard-linked into its own folder (validate takes the folder)
    const step = Math.round(5000 / input.count);
    chosen = meta.files.filter((_, i) => i % step === 0).slice(0, input.count);
    dir = join(work, `files-${input.count}`);
    if (
      !existsSync(dir) ||
      readdirSync(dir).length !== chosen.length ||
      chosen.some((f) => !existsSync(join(dir, f.name)))
    ) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const f of chosen) linkSync(join(dir5000, f.name), join(dir, f.name));
    }
  }
  const sizes = chosen.map((f) => f.bytes).sort((a, b) => a - b);
  return {
    ...input,
    paths: [dir],
    display: `${rel(dir)}/ (${chosen.length} files)`,
    bytes: sizes.reduce((s, x) => s + x, 0),
    records: chosen.reduce((s, f) => s + f.records, 0),
    files: chosen.length,
    sizes: {
      min: sizes[0],
      median: median(sizes),
      p90: sizes[Math.floor(sizes.length * 0.9)],
      max: sizes[sizes.length - 1],
    },
    peerCwd: dir,
    peerArgs: chosen.map((f) => f.name),
  };
}

async function ensureTiny() {
  const dir = join(work, "tiny");
  const file = join(dir, "kleingesetz.jsonl");
  if (existsSync(file) && !regenerate) return file;
  rmSync(dir, { recursive: true, force: true });
  const lawDir = join(dir, "dataset");
  mkdirSync(lawDir, { recursive: true });
  writeFileSync(
    join(lawDir, "index.md"),
    "# Gesetz über kleine Dinge (KleinG)\n\n## § 1 Anwendungsbereich\n\nDieses Gesetz gilt für kleine Dinge.\n\n## § 2 Inkrafttreten\n\nDieses Gesetz tritt am Tag nach der Verkündung in Kraft.\n",
  );
  const index = await import("../dist/index.js");
  const { serializeRecord } = await import("../dist/core-api.js");
  const { readFile } = await import("node:fs/promises");
  const made = await makeDatasetFile({ ...index, serializeRecord, readArtifact: readFile }, lawDir, "kleingesetz");
  writeFileSync(file, made.text);
  return file;
}

// ---------------------------------------------------------------- the peer

function ensurePeer() {
  if (!usePeer) return { skipped: "--no-peer given" };
  const prefix = join(data, "peers");
  const pkgDir = join(prefix, "node_modules/@sourcemeta/jsonschema");
  if (!existsSync(join(pkgDir, "package.json"))) {
    mkdirSync(prefix, { recursive: true });
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const installed = spawnSync(
      npm,
      ["install", "--prefix", prefix, "--no-audit", "--no-fund", "@sourcemeta/jsonschema@16"],
      { encoding: "utf8" },
    );
    if (installed.status !== 0)
      return {
        skipped: `npm install --prefix ${rel(prefix)} @sourcemeta/jsonschema@16 failed: ${(installed.stderr || "").trim().split("\n").slice(-3).join(" / ")}`,
      };
  }
  const version = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;
  // The npm package's bin is a node wrapper (npm/cli.js) around a native binary; the binary is run
  // directly, sparing the peer a node start-up (~40 ms) per run.
  const arch = process.arch === "x64" ? "x86_64" : process.arch;
  const musl = process.platform === "linux" && process.report?.getReport?.().header?.glibcVersionRuntime === undefined;
  const name = `jsonschema-${process.platform === "win32" ? "windows" : process.platform}-${arch}${musl ? "-musl" : ""}${process.platform === "win32" ? ".exe" : ""}`;
  const binary = join(pkgDir, "build/github-releases", name);
  if (!existsSync(binary))
    return { skipped: `@sourcemeta/jsonschema ${version} has no binary ${name} for this platform` };
  const check = spawnSync(binary, ["version"], { encoding: "utf8" });
  if (check.status !== 0) return { skipped: `${rel(binary)} does not run here: ${check.stderr || check.error}` };
  return { version, binary, reported: check.stdout.trim() };
}

// ---------------------------------------------------------------- contenders and their verdicts

function contenders(input, peer, schema) {
  const list = [
    {
      id: "baseline",
      label: "baseline: 1 MiB reads, split lines, JSON.parse (1 thread, timed inside)",
      command: process.execPath,
      args: [join(root, "bench/measure.js"), "baseline", ...input.paths.map(rel)],
      inside: true,
    },
    {
      id: "validate",
      label: "validate --no-lock (every rule, own thread count)",
      command: process.execPath,
      args: [rel(cli), "validate", "--no-lock", ...input.paths.map(rel)],
    },
    {
      id: "validate-j1",
      label: "validate --no-lock --jobs 1 (every rule, one core)",
      command: process.execPath,
      args: [rel(cli), "validate", "--no-lock", "--jobs", "1", ...input.paths.map(rel)],
    },
  ];
  if (input.key !== "files") {
    // The same without the two uniqueness rules, whose identifier sets are the one part of memory that grows with the
    // file: what is left must stay flat.
    const noSets = ["--rule", "unique-citation-address=off", "--rule", "unique-citation-target-id=off"];
    list.push(
      {
        id: "validate-nosets",
        label: "validate --no-lock, uniqueness rules off (own thread count)",
        command: process.execPath,
        args: [rel(cli), "validate", "--no-lock", ...noSets, ...input.paths.map(rel)],
      },
      {
        id: "validate-j1-nosets",
        label: "validate --no-lock --jobs 1, uniqueness rules off",
        command: process.execPath,
        args: [rel(cli), "validate", "--no-lock", "--jobs", "1", ...noSets, ...input.paths.map(rel)],
      },
    );
  }
  if (peer.binary) {
    list.push({
      id: "peer",
      label: `@sourcemeta/jsonschema ${peer.version} validate (schema only)`,
      command: peer.binary,
      args: ["validate", schema, ...input.peerArgs],
      cwd: input.peerCwd,
    });
    list.push({
      id: "peer-fast",
      label: `@sourcemeta/jsonschema ${peer.version} validate --fast (schema only)`,
      command: peer.binary,
      args: ["validate", schema, "--fast", ...input.peerArgs],
      cwd: input.peerCwd,
    });
  }
  return list;
}

/** What a run found: exit code, problems and records, read from what the contender printed. */
function verdict(id, run) {
  const text = `${run.stdout}\n${run.stderr}`;
  if (id === "baseline") {
    const last = run.stdout.trim().split("\n").pop();
    try {
      const r = JSON.parse(last);
      return { problems: 0, records: r.records, files: r.files, seconds: r.seconds };
    } catch {
      return { problems: undefined, records: undefined };
    }
  }
  if (id.startsWith("validate")) {
    const records = Number(/([\d,]+) records?/.exec(text)?.[1]?.replaceAll(",", "") ?? Number.NaN);
    const files = Number(/([\d,]+) files?\b/.exec(text)?.[1]?.replaceAll(",", "") ?? Number.NaN);
    const problems = /no problems/.test(text)
      ? 0
      : Number(/([\d,]+) problems?/.exec(text)?.[1]?.replaceAll(",", "") ?? Number.NaN);
    return { problems, records, files };
  }
  const m = /(\d+) validated, (\d+) passed, (\d+) failed/.exec(text);
  return m ? { problems: Number(m[3]), records: Number(m[1]) } : { problems: undefined, records: undefined };
}

// ---------------------------------------------------------------- the run

say(
  `validate against the baseline and @sourcemeta/jsonschema (${full ? "full" : "quick"} mode, ${reps} alternating repetitions, median)`,
);
say(
  `machine: ${machine}; commit ${commit}${dirty ? " (src/ has uncommitted changes: the figures are of the working tree's dist/)" : ""}; ${new Date().toISOString()}`,
);
say(`peak RSS: ${TIME ? "/usr/bin/time -f %M" : "bench/rss-hook.cjs (node) and /proc VmHWM polling (native)"}`);
say("");
say("data:");
const schema = join(data, "schema.json");
runSync("schema", process.execPath, [cli, "schema", "-o", schema]);
const inputs = [];
for (const input of [BIG, MID, FILES]) {
  if (only && !only.includes(input.key)) continue;
  inputs.push(input.key === "files" ? await ensureFiles(input) : ensureJsonl(input));
}
const tiny = await ensureTiny();
for (const input of inputs) {
  const sizes = input.sizes
    ? `; sizes min ${fmt(input.sizes.min / 1e3, 1)} KB, median ${fmt(input.sizes.median / 1e3, 1)} KB, p90 ${fmt(input.sizes.p90 / 1e3, 1)} KB, max ${fmt(input.sizes.max / 1e3, 1)} KB`
    : "";
  const from = input.laws
    ? ` (one dataset: ${input.laws} laws, ${fmt(input.corpusMb, 1)} MB of markdown, lock + generate)`
    : "";
  say(
    `  ${input.title}: ${input.display}, ${fmt(input.bytes / 1e6, 1)} MB, ${input.records.toLocaleString("en")} records${from}${sizes}`,
  );
}
const peer = ensurePeer();
say(
  peer.binary
    ? `  peer: @sourcemeta/jsonschema ${peer.version} (${rel(peer.binary)}, reports "${peer.reported}"); schema ${rel(schema)} from \`citation-targets schema\``
    : `  peer: not run — ${peer.skipped}`,
);
say("");

const results = [];
for (const input of inputs) {
  const list = contenders(input, peer, schema);
  const runs = Object.fromEntries(list.map((c) => [c.id, []]));
  process.stdout.write(`${input.title}: `);
  for (let r = 0; r < reps; r++) {
    for (const c of list) {
      const run = await runOnce(c.command, c.args, { cwd: c.cwd });
      const found = verdict(c.id, run);
      // The baseline's time is taken inside its process (issue 41): no process start in it.
      if (c.inside && found.seconds !== undefined) run.seconds = found.seconds;
      runs[c.id].push({
        ...run,
        ...found,
        stdout: undefined,
        stderr: run.status === 0 ? undefined : `${run.stderr}\n${run.stdout}`.trim().slice(0, 2000),
      });
      process.stdout.write(
        `${c.id} ${fmt(run.seconds)}s${r === reps - 1 && c === list[list.length - 1] ? "\n" : ", "}`,
      );
    }
  }
  const rows = list.map((c) => {
    const all = runs[c.id];
    const seconds = median(all.map((x) => x.seconds));
    return {
      id: c.id,
      label: c.label,
      command: `${c.cwd && c.cwd !== root ? `(cd ${rel(c.cwd)} && ` : ""}${c.command === process.execPath ? "node" : rel(c.command)} ${c.args.length > 8 ? [...c.args.slice(0, 4), `… (${c.args.length - 4} more)`].join(" ") : c.args.join(" ")}${c.cwd && c.cwd !== root ? ")" : ""}`,
      seconds,
      spread: [Math.min(...all.map((x) => x.seconds)), Math.max(...all.map((x) => x.seconds))],
      mbPerSecond: input.bytes / 1e6 / seconds,
      maxRssMb: median(all.map((x) => x.maxRssMb)),
      maxRssMbHighest: Math.max(...all.map((x) => x.maxRssMb)),
      statuses: [...new Set(all.map((x) => x.status))],
      problems: [...new Set(all.map((x) => x.problems))],
      records: [...new Set(all.map((x) => x.records))],
      loads: all.map((x) => x.load),
      runs: all.map(({ seconds: s, maxRssMb, status, problems, records, load, stderr }) => ({
        seconds: s,
        maxRssMb,
        status,
        problems,
        records,
        load,
        stderr,
      })),
    };
  });
  const base = rows.find((r) => r.id === "baseline");
  for (const row of rows) {
    row.ratio = base.seconds / row.seconds;
    const bad = row.runs.find((x) => x.status !== 0 || x.problems !== 0);
    if (bad)
      fail(
        `${input.title}: ${row.label}: exit ${bad.status}, problems ${bad.problems}${bad.stderr ? `\n    ${bad.stderr.split("\n").slice(0, 12).join("\n    ")}` : ""}`,
      );
    if (row.records.length !== 1 || row.records[0] !== input.records)
      fail(`${input.title}: ${row.label}: found ${row.records.join("/")} records; the data has ${input.records}`);
  }
  results.push({ input: { ...input, peerArgs: undefined, sizes: input.sizes }, rows });
}

// ---------------------------------------------------------------- start-up and identifier sets

const startupRuns = { bare: [], validate: [] };
const STARTUP_RUNS = 9;
for (let i = 0; i < STARTUP_RUNS; i++) {
  startupRuns.bare.push((await runOnce(process.execPath, ["-e", "0"])).seconds * 1e3);
  const v = await runOnce(process.execPath, [rel(cli), "validate", "--no-lock", rel(tiny)]);
  if (v.status !== 0) fail(`start-up: validate --no-lock ${rel(tiny)} exited ${v.status}: ${v.stdout}${v.stderr}`);
  startupRuns.validate.push(v.seconds * 1e3);
}
const startup = { bareMs: median(startupRuns.bare), validateMs: median(startupRuns.validate), runs: startupRuns };
startup.differenceMs = startup.validateMs - startup.bareMs;

const idsets = {};
for (const key of ["big", "100mb"]) {
  const input = inputs.find((i) => i.key === key);
  if (!input) continue;
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), "--idsets", input.paths[0]],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  idsets[key] = child.status === 0 ? JSON.parse(child.stdout.trim().split("\n").pop()) : undefined;
}

// ---------------------------------------------------------------- report

say("");
say(`## validate against the baseline and @sourcemeta/jsonschema (${full ? "full" : "quick"} mode)`);
say("");
say(
  `${machine}; commit ${commit}${dirty ? " + uncommitted src/ changes" : ""}; ${reps} alternating runs per contender, median (peak RSS: median, highest in brackets)`,
);
for (const { input, rows } of results) {
  say("");
  say(
    `### ${input.title}: ${fmt(input.bytes / 1e6, 1)} MB, ${input.records.toLocaleString("en")} records, ${input.files.toLocaleString("en")} file${input.files > 1 ? "s" : ""}`,
  );
  say("");
  say("| contender | wall s (min–max) | MB/s | × baseline | peak RSS MB | exit | problems | records |");
  say("|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    say(
      `| ${r.label} | ${fmt(r.seconds)} (${fmt(r.spread[0])}–${fmt(r.spread[1])}) | ${fmt(r.mbPerSecond, 1)} | ${fmt(r.ratio)}x | ${fmt(r.maxRssMb, 0)} (${fmt(r.maxRssMbHighest, 0)}) | ${r.statuses.join("/")} | ${r.problems.join("/")} | ${r.records.map((x) => x?.toLocaleString("en")).join("/")} |`,
    );
}
say("");
say(
  `start-up (median of ${STARTUP_RUNS}, alternating): \`node -e 0\` ${fmt(startup.bareMs, 0)} ms; \`validate --no-lock ${rel(tiny)}\` ${fmt(startup.validateMs, 0)} ms: +${fmt(startup.differenceMs, 0)} ms`,
);
const loads = results.flatMap((r) => r.rows.flatMap((row) => row.loads));
say(
  `load average (1 min) before the runs: ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} on ${cpus().length} cores${Math.max(...loads) > cpus().length * 0.75 ? " (other work was running at times)" : ""}`,
);

// targets
const row = (key, id) => results.find((r) => r.input.key === key)?.rows.find((x) => x.id === id);
const targets = [];
const target = (text, met, detail) => targets.push({ text, met, detail });
{
  const ratios = results.map((r) => ({ title: r.input.key, ratio: r.rows.find((x) => x.id === "validate-j1")?.ratio }));
  target(
    "one core (`--jobs 1`), every rule: ≥ 0.55x the baseline's throughput",
    ratios.every((x) => x.ratio >= 0.55),
    ratios.map((x) => `${x.title} ${fmt(x.ratio)}x`).join(", "),
  );
  const big = row("big", "validate");
  target(
    `both cores on the ${full ? "1 GB" : "big (quick: 125 MB)"} file: ≥ 1.0x the single-core baseline`,
    big ? big.ratio >= 1 : undefined,
    big
      ? `${fmt(big.ratio)}x (${fmt(big.mbPerSecond, 1)} vs ${fmt(row("big", "baseline").mbPerSecond, 1)} MB/s)`
      : "not run",
  );
  for (const key of ["100mb", "files"]) {
    const ours = row(key, "validate");
    const theirs = row(key, "peer-fast");
    const title =
      key === "100mb"
        ? "the 100 MB file"
        : `the ${FILES.count.toLocaleString("en")} files${full ? "" : " (full mode: 5,000)"}`;
    target(
      `faster than @sourcemeta/jsonschema validate --fast on ${title}`,
      ours && theirs ? ours.seconds < theirs.seconds : undefined,
      ours && theirs
        ? `${fmt(ours.seconds)} s vs ${fmt(theirs.seconds)} s (${fmt(theirs.seconds / ours.seconds)}x its speed)`
        : ours
          ? `peer not run (${peer.skipped})`
          : "input not run",
    );
  }
  const [b, m] = [row("big", "validate"), row("100mb", "validate")];
  const [bj, mj] = [row("big", "validate-j1"), row("100mb", "validate-j1")];
  if (b && m && idsets.big && idsets["100mb"]) {
    const allowance = idsets.big.idsetsMb - idsets["100mb"].idsetsMb;
    const slack = 32; // MB of noise allowed on top of the identifier sets' growth
    const growth = b.maxRssMb - m.maxRssMb;
    const growthJ1 = bj.maxRssMb - mj.maxRssMb;
    target(
      `peak RSS flat from 100 MB to ${full ? "1 GB" : "the big file"} apart from the identifier sets (growth ≤ the sets' growth + ${slack} MB)`,
      growth <= allowance + slack && growthJ1 <= allowance + slack,
      `validate ${fmt(m.maxRssMb, 0)} → ${fmt(b.maxRssMb, 0)} MB (+${fmt(growth, 0)}), --jobs 1 ${fmt(mj.maxRssMb, 0)} → ${fmt(bj.maxRssMb, 0)} MB (+${fmt(growthJ1, 0)}); the two identifier sets (Map<address|id, line>) take ${fmt(idsets["100mb"].idsetsMb, 0)} → ${fmt(idsets.big.idsetsMb, 0)} MB of heap (+${fmt(allowance, 0)})`,
    );
  }
  const [bn, mn] = [row("big", "validate-nosets"), row("100mb", "validate-nosets")];
  const [bjn, mjn] = [row("big", "validate-j1-nosets"), row("100mb", "validate-j1-nosets")];
  if (bn && mn && bjn && mjn) {
    const slack = 32;
    target(
      `peak RSS flat from 100 MB to ${full ? "1 GB" : "the big file"} without the identifier sets (uniqueness rules off; growth ≤ ${slack} MB)`,
      bn.maxRssMb - mn.maxRssMb <= slack && bjn.maxRssMb - mjn.maxRssMb <= slack,
      `validate ${fmt(mn.maxRssMb, 0)} → ${fmt(bn.maxRssMb, 0)} MB (+${fmt(bn.maxRssMb - mn.maxRssMb, 0)}), --jobs 1 ${fmt(mjn.maxRssMb, 0)} → ${fmt(bjn.maxRssMb, 0)} MB (+${fmt(bjn.maxRssMb - mjn.maxRssMb, 0)})`,
    );
  }
  target("start-up within 100 ms of bare node", startup.differenceMs <= 100, `+${fmt(startup.differenceMs, 0)} ms`);
}
say("");
say("| target | met | figures |");
say("|---|---|---|");
for (const t of targets)
  say(`| ${t.text} | ${t.met === undefined ? "not measured" : t.met ? "yes" : "**no**"} | ${t.detail} |`);
const minutes = (Date.now() - started) / 60000;
say("");
say(
  failures.length === 0
    ? "checks: every contender exited 0 and found the data clean; record counts agree"
    : `${failures.length} check(s) FAILED (see above)`,
);
say(`bench took ${fmt(minutes, 1)} min`);
// validate-last-run.* is the latest run of either mode; validate-last-quick-run.* / validate-last-full-run.* per mode.
const mode = full ? "full" : "quick";
const json = `${JSON.stringify({ mode, reps, machine, commit, dirty, date: new Date().toISOString(), peer, startup, idsets, results, targets, failures, minutes }, null, 2)}\n`;
for (const name of ["validate-last-run", `validate-last-${mode}-run`]) {
  writeFileSync(join(data, `${name}.txt`), `${out.join("\n")}\n`);
  writeFileSync(join(data, `${name}.json`), json);
}
process.exitCode = failures.length === 0 ? 0 : 1;
