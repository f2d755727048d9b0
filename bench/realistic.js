#!/usr/bin/env node
// The realistic benchmark (issue "real-scale speed", item 4): every step of the CLI on a synthetic corpus
// shaped like German federal law (bench/corpus.js: one `index.md` per law folder, one dataset), on the
// full corpus and on one of half its size, each step in its own child process with its peak RSS.
//
// node bench/realistic.js [--quick] [--mb 150] [--no-half] [--runs 1] [--units] [--cli path/to/bin/citation-targets.js] [--label
// text] node bench/run.js realistic [--quick] (npm run bench runs it too) env: BENCH_CORPUS_MB (default 150; --quick:
// 15), BENCH_QUICK=1, BENCH_CLI
//
// --pairs N: only markdown-it's full parse against generate, N rounds of alternating runs on the full corpus (issue 41).
// --units: only generate with units below the heading against generate without, in alternating rounds (at least 3),
// on the full corpus (bench/units-cost.js); target ≤ 1.5.
// Steps, per corpus: `lock` (first time, with the dataset flags), `lock --check` (refresh, up to date),
// `generate -o <slug>.jsonl`, `validate --no-lock`, `validate` (finds <slug>.lock.json beside the JSONL),
// and the baselines: markdown-it 15 (commonmark) parsing every file on one thread, plus SHA-256 of each; the JSONL read
// in 1 MiB chunks, split on LF, JSON.parse of each line, one thread, timed inside its process (issue 41).
// Every step must succeed and validate must report no problems; the record count must equal the
// folders plus the targets markdown-it finds. Results go to stdout (markdown tables) and
// bench/data/realistic/last-run.json. Exit code 1 when a check failed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureCorpus } from "./corpus.js";
import { CORPUS_DATASET_FLAGS, CORPUS_SLUG } from "./dataset-flags.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const data = join(root, "bench/data/realistic");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const quick = args.includes("--quick") || process.env.BENCH_QUICK === "1";
const mb = Number(option("--mb") ?? process.env.BENCH_CORPUS_MB ?? (quick ? 15 : 150));
const seed = option("--seed") ?? "realistic-1";
const cli = resolve(option("--cli") ?? process.env.BENCH_CLI ?? join(root, "bin/citation-targets.js"));
const sizes = args.includes("--no-half") ? [mb] : [mb, mb / 2];
const runs = Number(option("--runs") ?? 1);
const SLUG = CORPUS_SLUG;

const hook = join(root, "bench/rss-hook.cjs");
mkdirSync(data, { recursive: true });

const failures = [];
/** The 1-minute load average before each step: other work on the machine skews the figures. */
const loads = [];
const fail = (text) => {
  failures.push(text);
  console.log(`FAILED: ${text}`);
};

/**
 * Runs `node [--require hook] script ...args` in a child; wall time from the parent, peak RSS and CPU from the child.
 */
function run(label, script, scriptArgs, inside = false) {
  const expectStatus = 0;
  loads.push(loadavg()[0]);
  const rssFile = join(data, `.rss-${process.pid}.json`);
  rmSync(rssFile, { force: true });
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["--require", hook, script, ...scriptArgs], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1", CI: "1" },
  });
  let seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // `inside`: the time the script took by its own clock (the JSON baseline's: issue 41, no process start in it).
  if (inside && child.status === 0) seconds = JSON.parse(child.stdout.trim().split("\n").pop()).seconds;
  const usage = existsSync(rssFile) ? JSON.parse(readFileSync(rssFile, "utf8")) : {};
  rmSync(rssFile, { force: true });
  const command =
    `node ${[script, ...scriptArgs].map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(" ")}`.replaceAll(
      `${root}/`,
      "",
    );
  if (child.status !== expectStatus)
    fail(
      `${label}: exit ${child.status ?? child.signal} (expected ${expectStatus}): ${command}\n${(child.stderr || child.stdout).slice(0, 4000)}`,
    );
  return {
    label,
    seconds,
    maxRssMb: usage.maxRssMb,
    cpuSeconds: (usage.userSeconds ?? 0) + (usage.systemSeconds ?? 0),
    stdout: child.stdout,
    stderr: child.stderr,
    command,
  };
}

async function sha256File(file) {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

const machine = `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const gitHead =
  option("--label") ??
  (spawnSync("git", ["describe", "--always", "--dirty"], {
    cwd: dirname(dirname(cli)),
    encoding: "utf8",
  }).stdout?.trim() ||
    "unknown");
console.log(
  `realistic benchmark (${runs} run${runs > 1 ? "s" : ""} per step): ${machine}; CLI ${cli.replace(`${root}/`, "")} (commit ${gitHead}); corpus ${sizes.map((s) => `${s} MB`).join(" and ")}, seed ${seed}`,
);

const results = [];
if (option("--pairs") !== undefined) {
  // Only markdown-it's full parse against generate, in N rounds of alternating runs (which goes first alternates), on
  // the full corpus: the ratio of each round, and their median (issue 41: ≥ 1.5).
  const pairs = Number(option("--pairs"));
  const name = `corpus-${mb}mb`;
  const dir = join(data, name);
  const corpus = ensureCorpus({ mb, seed, dir });
  const out = join(data, `pairs-${mb}mb`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const manifest = join(out, `${SLUG}.lock.json`);
  const jsonl = join(out, `${SLUG}.jsonl`);
  run("lock", cli, ["lock", dir, ...CORPUS_DATASET_FLAGS, "-o", manifest]);
  console.log(`\n${name}: ${corpus.files} laws, ${(corpus.bytes / 1e6).toFixed(1)} MB of markdown; ${pairs} rounds`);
  const rounds = [];
  for (let round = 0; round < pairs; round++) {
    const baseline = () => run("baseline", join(root, "bench/markdown-baseline.js"), [dir]);
    const generated = () => run("generate", cli, ["generate", manifest, "-o", jsonl]);
    let first;
    let second;
    if (round % 2 === 0) {
      first = baseline();
      second = generated();
    } else {
      second = generated();
      first = baseline();
    }
    const load = loadavg()[0];
    rounds.push({
      baseline: first.seconds,
      generate: second.seconds,
      ratio: first.seconds / second.seconds,
      rss: second.maxRssMb,
      cpu: [first.cpuSeconds, second.cpuSeconds],
      load,
    });
    console.log(
      `  round ${round + 1}: markdown-it ${first.seconds.toFixed(2)} s (CPU ${first.cpuSeconds.toFixed(1)} s), generate ${second.seconds.toFixed(2)} s (CPU ${second.cpuSeconds.toFixed(1)} s, peak RSS ${second.maxRssMb?.toFixed(0)} MB): ratio ${(first.seconds / second.seconds).toFixed(2)}; load ${load.toFixed(1)}`,
    );
  }
  const sorted = rounds.map((r) => r.ratio).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(
    `\nmarkdown-it time / generate time: median ${median.toFixed(2)} (rounds ${rounds.map((r) => r.ratio.toFixed(2)).join(", ")}; target ≥ 1.5); generate peak RSS ${Math.max(...rounds.map((r) => r.rss)).toFixed(0)} MB (target ≤ 300); load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${cpus().length} cores`,
  );
  writeFileSync(
    join(data, "last-pairs-run.json"),
    `${JSON.stringify({ machine, commit: gitHead, cli, seed, mb, rounds, median, failures }, null, 2)}\n`,
  );
  process.exit(failures.length === 0 ? 0 : 1);
}
if (args.includes("--units")) {
  // Only the cost of units below the heading, on the full corpus (bench/units-cost.js).
  const { unitsCost } = await import("./units-cost.js");
  const name = `corpus-${mb}mb`;
  const dir = join(data, name);
  const corpus = ensureCorpus({ mb, seed, dir });
  console.log(`\n${name}: ${corpus.files} laws, ${(corpus.bytes / 1e6).toFixed(1)} MB of markdown`);
  const figures = unitsCost({ cli, dir, out: join(data, `units-${mb}mb`), runs: Math.max(runs, 3), run, fail, name });
  writeFileSync(
    join(data, "last-units-run.json"),
    `${JSON.stringify({ machine, commit: gitHead, cli, seed, mb, figures, failures }, null, 2)}\n`,
  );
  process.exit(failures.length === 0 ? 0 : 1);
}
for (const size of sizes) {
  const name = `corpus-${size}mb`;
  const dir = join(data, name);
  const corpus = ensureCorpus({ mb: size, seed, dir });
  const corpusMb = corpus.bytes / 1e6;
  console.log(
    `\n${name}: ${corpus.files} files, ${corpusMb.toFixed(1)} MB, median ${(corpus.sizes.median / 1e3).toFixed(1)} KB, p90 ${(corpus.sizes.p90 / 1e3).toFixed(1)} KB, p99 ${(corpus.sizes.p99 / 1e3).toFixed(0)} KB, max ${(corpus.sizes.max / 1e6).toFixed(2)} MB (${corpus.sizes.over1MB} of 1 MB or more); digest ${corpus.digest.slice(0, 16)}…; ${corpus.cached ? "cached" : `written in ${corpus.generateSeconds.toFixed(1)} s`}`,
  );

  const out = join(data, `out-${size}mb`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const manifest = join(out, `${SLUG}.lock.json`);
  const jsonl = join(out, `${SLUG}.jsonl`);
  const steps = [];
  const step = (label, script, scriptArgs, per, prepare, inside = false) => {
    // --runs N: the step N times; the median time (and its CPU), the highest peak RSS.
    const all = Array.from({ length: runs }, () => {
      prepare?.();
      return run(label, script, scriptArgs, inside);
    });
    const byTime = [...all].sort((a, b) => a.seconds - b.seconds);
    const result = {
      ...byTime[Math.floor((runs - 1) / 2)],
      maxRssMb: Math.max(...all.map((r) => r.maxRssMb ?? NaN)),
      per,
    };
    if (runs > 1)
      result.spread = {
        seconds: [byTime[0].seconds, byTime[runs - 1].seconds],
        maxRssMb: [Math.min(...all.map((r) => r.maxRssMb)), result.maxRssMb],
      };
    steps.push(result);
    const spread = result.spread
      ? ` (${runs} runs: ${result.spread.seconds.map((x) => x.toFixed(2)).join("–")} s, ${result.spread.maxRssMb.map((x) => x.toFixed(0)).join("–")} MB)`
      : "";
    console.log(`  ${label}: ${result.seconds.toFixed(2)} s, peak RSS ${result.maxRssMb?.toFixed(0)} MB${spread}`);
    return result;
  };

  const baseline = step(
    "baseline: markdown-it 15 commonmark parse + SHA-256 per file (1 thread)",
    join(root, "bench/markdown-baseline.js"),
    [dir],
    "corpus",
  );
  const found = baseline.stdout ? JSON.parse(baseline.stdout.trim().split("\n").pop()) : {};
  step("lock (first time, dataset flags)", cli, ["lock", dir, ...CORPUS_DATASET_FLAGS, "-o", manifest], "corpus", () =>
    rmSync(manifest, { force: true }),
  );
  if (existsSync(manifest)) {
    const artifacts = JSON.parse(readFileSync(manifest, "utf8")).artifacts.length;
    if (artifacts !== corpus.files)
      fail(`${name}: the manifest lists ${artifacts} artifacts, the corpus has ${corpus.files} files`);
  }
  step("lock --check (refresh, up to date)", cli, ["lock", dir, "--check", "-o", manifest], "corpus");
  const generated = step("generate", cli, ["generate", manifest, "-o", jsonl], "corpus");
  const jsonlBytes = existsSync(jsonl) ? statSync(jsonl).size : 0;
  const records = Number(/\((\d+) records\)/.exec(generated.stdout + generated.stderr)?.[1] ?? NaN);
  const expected = corpus.files + found.targets; // one structural container per law folder, one record per target
  if (records !== expected)
    fail(
      `${name}: generate wrote ${records} records; markdown-it finds ${found.targets} targets in ${corpus.files} folders, so ${expected} were expected`,
    );
  // The JSON baseline of issue 41: the JSONL read in 1 MiB chunks, split on LF, JSON.parse of each line, one thread,
  // timed inside its process.
  const jsonBaseline = step(
    "baseline: JSONL in 1 MiB reads, split, JSON.parse (1 thread, timed inside)",
    join(root, "bench/jsonl-baseline.js"),
    [jsonl],
    "jsonl",
    undefined,
    true,
  );
  const validations = {};
  for (const [key, label, flags] of [
    ["noLock", "validate --no-lock", ["--no-lock"]],
    ["withLock", "validate (lock manifest beside the JSONL)", []],
  ]) {
    const result = step(label, cli, ["validate", "--no-config", ...flags, "--format", "json", jsonl], "jsonl");
    validations[key] = result;
    let report;
    try {
      report = JSON.parse(result.stdout);
    } catch {
      fail(`${name}: ${label} printed no JSON report`);
      continue;
    }
    const { summary } = report;
    if (summary.errors !== 0 || summary.warnings !== 0 || summary.records !== records) {
      const problems = report.files.flatMap((f) =>
        f.problems.slice(0, 5).map((p) => `${f.path}:${p.line} ${p.ruleId} ${p.message}`),
      );
      fail(
        `${name}: ${label}: ${summary.errors} errors, ${summary.warnings} warnings, ${summary.records} records (generated ${records})\n    ${problems.join("\n    ")}`,
      );
    }
  }
  results.push({
    name,
    corpus,
    corpusMb,
    jsonlMb: jsonlBytes / 1e6,
    records,
    found,
    jsonlSha256: existsSync(jsonl) ? await sha256File(jsonl) : undefined,
    steps: steps.map(({ label, seconds, maxRssMb, cpuSeconds, per, command, spread }) => ({
      label,
      seconds,
      maxRssMb,
      cpuSeconds,
      mbPerSecond: (per === "jsonl" ? jsonlBytes / 1e6 : corpusMb) / seconds,
      per,
      command,
      spread,
    })),
    ratios: {
      markdownItOverGenerate: baseline.seconds / generated.seconds,
      validateLockOverNoLock: validations.withLock.seconds / validations.noLock.seconds,
      noLockOverJsonBaseline: jsonBaseline.seconds / validations.noLock.seconds,
      generateRssMb: generated.maxRssMb,
    },
  });
}

// ---------------------------------------------------------------- report
const fmt = (x, digits = 2) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(digits));
console.log(
  `\n## realistic corpus: ${machine}, CLI at commit ${gitHead}${runs > 1 ? `, median of ${runs} runs (peak RSS: the highest)` : ""}\n`,
);
for (const r of results) {
  console.log(
    `${r.name}: ${r.corpus.files} laws, ${fmt(r.corpusMb, 1)} MB markdown (median ${fmt(r.corpus.sizes.median / 1e3, 1)} KB, p90 ${fmt(r.corpus.sizes.p90 / 1e3, 1)} KB, max ${fmt(r.corpus.sizes.max / 1e6)} MB), ${r.found.headings} headings, ${r.found.blocks} top-level blocks; ${r.records} records, ${fmt(r.jsonlMb, 1)} MB JSONL (sha256 ${r.jsonlSha256?.slice(0, 16)}…)\n`,
  );
  console.log("| step | time | MB/s | peak RSS | CPU |");
  console.log("|---|---|---|---|---|");
  for (const s of r.steps)
    console.log(
      `| ${s.label} | ${fmt(s.seconds)} s | ${fmt(s.mbPerSecond, 1)}${s.per === "jsonl" ? " (of JSONL)" : ""} | ${fmt(s.maxRssMb, 0)} MB | ${fmt(s.cpuSeconds, 1)} s |`,
    );
  console.log("");
}
console.log(`| ratio | target | ${results.map((r) => r.name).join(" | ")} |`);
console.log(`|---|---|${results.map(() => "---").join("|")}|`);
console.log(
  `| markdown-it time / generate time | ≥ 1.0 | ${results.map((r) => fmt(r.ratios.markdownItOverGenerate, 3)).join(" | ")} |`,
);
console.log(
  `| validate with lock / validate --no-lock | ≤ 1.3 | ${results.map((r) => fmt(r.ratios.validateLockOverNoLock)).join(" | ")} |`,
);
console.log(
  `| validate --no-lock throughput / the JSON baseline's | ≥ 0.6 | ${results.map((r) => fmt(r.ratios.noLockOverJsonBaseline)).join(" | ")} |`,
);
console.log(
  `| generate peak RSS | ≤ 300 MB | ${results.map((r) => `${fmt(r.ratios.generateRssMb, 0)} MB`).join(" | ")} |`,
);
console.log(
  `\nload average (1 min) before the steps: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${cpus().length} cores${Math.max(...loads) > cpus().length / 2 ? " — other work was running: times are inflated" : ""}`,
);
console.log(
  failures.length === 0
    ? "\nchecks: every step succeeded; validate found no problems; record counts match markdown-it's targets"
    : `\n${failures.length} check(s) FAILED (see above)`,
);
writeFileSync(
  join(data, "last-run.json"),
  `${JSON.stringify({ machine, commit: gitHead, cli, seed, quick, runs, loads, results, failures }, null, 2)}\n`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
