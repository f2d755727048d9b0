#!/usr/bin/env node
// The publisher's repository benchmark (issue "thousands of datasets"): the realistic corpus
// (bench/corpus.js, German-style federal law, one folder per law) laid out as one dataset per law, as
// publishers keep it: `laws/<law>/index.md`, and `.tooling/citation-targets/<law>.lock.json` (datasetRoot
// back to the law) with `<law>.jsonl` beside it, committed in a git repository. Every command runs
// end to end as a user runs it (the built CLI, a child process each, peak RSS measured), beside its
// baselines in the same run:
//   - every JSONL read in 1 MiB chunks, split on newlines, JSON.parse of each line, on one thread, timed inside its
//     process (bench/jsonl-baseline.js: no process start in its time, as issue 41 measures it);
//   - markdown-it parsing every markdown file once on one thread (bench/markdown-baseline.js).
// validate runs cold (no node_modules, so no cache) and, once node_modules is there, fills its cache and runs warm.
// Then one law is amended and staged, and the pre-commit hooks, `update` and `diff --against HEAD` run.
//
//   node bench/repository.js [--mb 150] [--seed realistic-1] [--runs 1] [--pairs 3] [--validate-only | --hooks-only]
// --runs: runs per step (the median is reported); --pairs: rounds of alternating baseline and subject runs for the
// targets' ratios (their median is the figure to judge a target by); --validate-only: only validate's steps and the
// targets of validate with locks (cold against `update --check --no-cache`, warm against `validate --no-lock`), for a
// quick look at them; --hooks-only: only `update --check --no-cache` and the pre-commit hooks after the largest law is
// amended, with their target (both hooks against the cold update --check, paired). A smaller --mb makes a repository of
// fewer laws (35: 1,548).
//   env: BENCH_CORPUS_MB
// Results: stdout (a markdown table) and bench/data/repository-<mb>mb.last-run.json.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CORPUS_VERSION, ensureCorpus } from "./corpus.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const mb = Number(option("--mb", process.env.BENCH_CORPUS_MB ?? 150));
const seed = option("--seed", "realistic-1");
const runs = Number(option("--runs", 1));
// The targets' ratios are also measured from alternating runs, baseline then subject, this many rounds: on a shared
// machine the speed drifts over minutes, and a ratio of two medians taken minutes apart drifts with it.
const pairs = Number(option("--pairs", 3));
if (!Number.isInteger(pairs) || pairs < 0) {
  console.error("repository: --pairs takes a whole number of rounds, 0 (none) or more");
  process.exit(2);
}
const validateOnly = args.includes("--validate-only");
const hooksOnly = args.includes("--hooks-only");
const cli = join(root, "bin/citation-targets.js");
const hook = join(root, "bench/rss-hook.cjs");
const repo = join(root, "bench/data", `repository-${mb}mb`);
const laws = join(repo, "laws");
const tooling = join(repo, ".tooling/citation-targets");
const git = (...gitArgs) => execFileSync("git", gitArgs, { cwd: repo, encoding: "utf8", maxBuffer: 1 << 28 });

/**
 * Runs a command in a child process; its wall time, peak RSS and exit code. `inside`: the time is the one the command
 * prints (the `seconds` of its last line of JSON), taken inside its process: the JSON baseline's. `before`: untimed,
 * run before each time (puts back what the run starts from).
 */
function run(
  label,
  command,
  commandArgs,
  { expect = [0], env = {}, cwd = repo, times: repeat = runs, inside = false, before } = {},
) {
  const load1 = loadavg()[0]; // other work on the machine skews the figures: each row says how busy it was
  const rssFile = join(repo, `.rss-${process.pid}.json`);
  const times = [];
  let result;
  let rss = 0;
  for (let i = 0; i < repeat; i++) {
    before?.(); // untimed: puts back what the run starts from (a hook's caches as the commit finds them)
    const started = process.hrtime.bigint();
    result = spawnSync(process.execPath, ["--require", hook, command, ...commandArgs], {
      cwd,
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile, CI: "true", NO_COLOR: "1" },
    });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    times.push(inside && result.status === 0 ? JSON.parse(result.stdout.trim().split("\n").pop()).seconds : wall);
    rss = Math.max(rss, JSON.parse(readFileSync(rssFile, "utf8")).maxRssMb);
  }
  rmSync(rssFile, { force: true });
  times.sort((a, b) => a - b);
  const seconds = times[Math.floor(times.length / 2)];
  const ok = expect.includes(result.status);
  const row = { label, seconds, rssMb: Math.round(rss), code: result.status, ok, load: load1 };
  console.error(`${ok ? "ok" : "FAILED"} ${label}: ${seconds.toFixed(2)} s, ${row.rssMb} MB, exit ${result.status}`);
  if (!ok) console.error(result.stdout.slice(0, 2000), result.stderr.slice(0, 2000));
  return { ...row, stdout: result.stdout, stderr: result.stderr };
}

// ---------------------------------------------------------------- the repository, built once and cached
async function buildRepository() {
  const stamp = join(repo, ".bench-stamp.json");
  // The generator's identity too: JSONL made by an older generator would not be up to date.
  const { generatorIdentity } = await import(pathToFileURL(join(root, "dist/node/cache/update-cache.js")).href);
  const wanted = { corpus: CORPUS_VERSION, mb, seed, layout: 1, generator: generatorIdentity() };
  if (existsSync(stamp) && JSON.stringify(JSON.parse(readFileSync(stamp, "utf8"))) === JSON.stringify(wanted)) {
    git("checkout", "-q", "--", ".");
    git("reset", "-q", "--hard", "bench-base");
    if (Number(/^count: (\d+)/m.exec(git("count-objects", "-v"))?.[1] ?? 0) > 1000) git("repack", "-a", "-d", "-q"); // one built before the repositories were packed
    return;
  }
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(tooling, { recursive: true });
  git("init", "-q"); // first: the commands find the repository's root from its .git
  git("config", "gc.auto", "0"); // no background gc after the big commit: it would run beside the measurements
  ensureCorpus({ mb, seed, dir: laws });
  rmSync(`${laws}.json`, { force: true });
  return import(pathToFileURL(join(root, "dist/index.js")).href).then(async ({ lock }) => {
    const names = readdirSync(laws).sort();
    for (const name of names) {
      const slug = name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
      await lock({
        dir: join(laws, name),
        cwd: repo,
        output: join(tooling, `${slug}.lock.json`),
        slug,
        titleId: name.toUpperCase().replace(/-/g, "").slice(0, 20) || "X",
        name: `Gesetz ${name}`,
        versionDate: "2024-12-31",
        sourceTextUrl: `https://www.legislation.gov.au/${name}/2024-12-31/text`,
      });
    }
    const first = spawnSync(process.execPath, [cli, "update", "--no-cache"], {
      cwd: repo,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (first.status !== 0) throw new Error(`update failed: ${first.stderr}`);
    git("config", "user.email", "bench@example.org");
    git("config", "user.name", "bench");
    writeFileSync(join(repo, ".gitignore"), ".rss-*\n.bench-stamp.json\nnode_modules/\n");
    git("add", "-A");
    git("commit", "-q", "-m", "corpus");
    git("tag", "bench-base");
    // Packed, as git packs a repository this size by itself (gc.auto: at 6,700 loose objects, which is off here so
    // that no background gc runs beside the measurements) and as every clone is: 26,000 loose objects would make each
    // lookup of `diff --against` open a file of its own.
    git("repack", "-a", "-d", "-q");
    writeFileSync(stamp, JSON.stringify(wanted));
  });
}

await buildRepository();
const names = readdirSync(laws).sort();
const jsonlBytes = readdirSync(tooling)
  .filter((n) => n.endsWith(".jsonl"))
  .reduce((sum, n) => sum + readFileSync(join(tooling, n)).length, 0);
const markdownBytes = names.reduce((sum, n) => sum + readFileSync(join(laws, n, "index.md")).length, 0);
console.error(
  `repository: ${names.length} datasets, ${(markdownBytes / 1e6).toFixed(1)} MB markdown, ${(jsonlBytes / 1e6).toFixed(1)} MB JSONL`,
);
rmSync(join(repo, "node_modules"), { recursive: true, force: true });

const rows = {};
const step = (key, label, command, commandArgs, options) => {
  rows[key] = run(label, command, commandArgs, options);
  return rows[key];
};

/**
 * A target's ratio from `pairs` rounds of alternating runs (the baseline, then the subject, each once): the median of
 * the rounds' ratios, and their range. `throughput`: the ratio is of throughputs (baseline time / subject time).
 */
const pairedRatios = {};
const paired = (label, baseline, subject, { throughput = false } = {}) => {
  const rounds = [];
  for (let i = 0; i < pairs; i++) {
    const b = run(`${baseline.label} (paired)`, baseline.command, baseline.args, { ...baseline.options, times: 1 });
    const t = run(`${subject.label} (paired)`, subject.command, subject.args, { ...subject.options, times: 1 });
    rounds.push(throughput ? b.seconds / t.seconds : t.seconds / b.seconds);
  }
  record(label, rounds);
};
/** A target's rounds kept with their median and range (none with --pairs 0). */
const record = (label, rounds) => {
  if (rounds.length === 0) return;
  const sorted = [...rounds].sort((a, b) => a - b);
  pairedRatios[label] = {
    median: sorted[Math.floor(sorted.length / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
    rounds,
  };
};
/** As `paired`, with a subject of several commands run one after another, their times added (the two hooks). */
const pairedSum = (label, baseline, subjects) => {
  const rounds = [];
  for (let i = 0; i < pairs; i++) {
    const b = run(`${baseline.label} (paired)`, baseline.command, baseline.args, { ...baseline.options, times: 1 });
    let sum = 0;
    for (const subject of subjects)
      sum += run(`${subject.label} (paired)`, subject.command, subject.args, { ...subject.options, times: 1 }).seconds;
    rounds.push(sum / b.seconds);
  }
  record(label, rounds);
};
const jsonBaseline = {
  label: "baseline: 1 MiB reads + split + JSON.parse, timed inside",
  command: join(root, "bench/jsonl-baseline.js"),
  args: [tooling],
  options: { inside: true },
};
const markdownBaseline = {
  label: "baseline: markdown-it parse",
  command: join(root, "bench/markdown-baseline.js"),
  args: [laws],
};
const validateNoLockRun = { label: "validate --no-lock", command: cli, args: ["validate", "--no-lock"] };
const validateColdRun = {
  label: "validate --no-cache (cold)",
  command: cli,
  args: ["validate", "--no-cache"],
};
const updateCheckColdRun = {
  label: "update --check --no-cache",
  command: cli,
  args: ["update", "--check", "--no-cache"],
};
if (!validateOnly && !hooksOnly) {
  step(
    "baselineJson",
    "baseline: 1 MiB reads + split + JSON.parse, one thread, timed inside its process",
    jsonBaseline.command,
    jsonBaseline.args,
    jsonBaseline.options,
  );
  step(
    "baselineMarkdown",
    "baseline: markdown-it parse of every markdown file, one thread",
    join(root, "bench/markdown-baseline.js"),
    [laws],
  );
  step("validateNoLock1", "validate --no-lock --jobs 1", cli, ["validate", "--no-lock", "--jobs", "1"]);
}
if (!hooksOnly) {
  step("validateNoLock", "validate --no-lock", cli, ["validate", "--no-lock"]);
  step("validate", "validate (each file with its lock manifest; no cache: cold)", cli, ["validate"]);
}
step("updateCheckCold", "update --check --no-cache (cold)", cli, ["update", "--check", "--no-cache"]);
if (!hooksOnly)
  paired(
    "validate --no-lock (default threads), throughput vs the JSON baseline (≥ 0.6)",
    jsonBaseline,
    validateNoLockRun,
    {
      throughput: true,
    },
  );
if (!validateOnly && !hooksOnly) {
  paired(
    "validate --no-lock --jobs 1, throughput vs the JSON baseline (≥ 0.55)",
    jsonBaseline,
    { label: "validate --no-lock --jobs 1", command: cli, args: ["validate", "--no-lock", "--jobs", "1"] },
    { throughput: true },
  );
  paired(
    "update --check cold, time vs markdown-it parse on one thread (≤ 0.67: 1.5 × its speed, issue 41)",
    markdownBaseline,
    updateCheckColdRun,
  );
}
if (hooksOnly)
  paired(
    "update --check cold, time vs markdown-it parse on one thread (≤ 0.67: 1.5 × its speed, issue 41)",
    markdownBaseline,
    updateCheckColdRun,
  );
// Issue 31: validate with locks proves every record is what generate writes, which is update --check's work.
if (!hooksOnly)
  paired(
    "validate with locks, cold (--no-cache), time vs update --check --no-cache (≤ 1.0)",
    updateCheckColdRun,
    validateColdRun,
  );
mkdirSync(join(repo, "node_modules"), { recursive: true }); // the default cache lives in node_modules/.cache
if (!validateOnly) {
  step("updateCheckFill", "update --check (cache empty: fills it)", cli, ["update", "--check"], { times: 1 });
  if (!hooksOnly) step("updateCheckWarm", "update --check (cache warm)", cli, ["update", "--check"]);
}
step("validateCacheFill", "validate (cache empty: fills it)", cli, ["validate"], { times: 1 });
if (!hooksOnly) {
  step("validateWarm", "validate (cache warm)", cli, ["validate"]);
  paired("validate with locks, cache warm, time vs validate --no-lock (≤ 1.3)", validateNoLockRun, {
    label: "validate (cache warm)",
    command: cli,
    args: ["validate"],
  });
}

// One law amended, the largest (the issue's case: the BGB, the largest real law; here SGB 5, 2.2 MB): a sentence added
// to its text, then staged, as a user commits it.
const markdownSize = (name) => readFileSync(join(laws, name, "index.md")).length;
const amended = names.reduce((largest, name) => (markdownSize(name) > markdownSize(largest) ? name : largest));
if (!validateOnly) {
  const amendedPath = join(laws, amended, "index.md");
  writeFileSync(
    amendedPath,
    `${readFileSync(amendedPath, "utf8")}\nEin neuer Satz, angefügt durch das Änderungsgesetz.\n`,
  );
  git("add", "-A");
  step(
    "hookUpdateStagedStale",
    "hook: update --check --staged (amended markdown staged, JSONL stale: exits 1)",
    cli,
    ["update", "--check", "--staged"],
    { expect: [1] },
  );
  step("updateAfterAmendment", "update after one amended law (cache warm)", cli, ["update"], { times: 1 });
  git("add", "-A");
  const amendedSlug = amended
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  // The hooks of the commit, each run as the commit finds the caches: as `update` left them (validate keeps a verdict on
  // the amended file, which a second run would use), put back before every run.
  const caches = join(repo, "node_modules/.cache");
  const kept = join(root, "bench/data", `repository-${mb}mb-caches`);
  rmSync(kept, { recursive: true, force: true });
  cpSync(caches, kept, { recursive: true });
  const restoreCaches = () => {
    rmSync(caches, { recursive: true, force: true });
    cpSync(kept, caches, { recursive: true });
  };
  const hookRuns = [
    {
      label: "hook: validate <the staged JSONL>",
      command: cli,
      args: ["validate", `.tooling/citation-targets/${amendedSlug}.jsonl`],
      options: { before: restoreCaches },
    },
    {
      label: "hook: update --check --staged",
      command: cli,
      args: ["update", "--check", "--staged"],
      options: { before: restoreCaches },
    },
  ];
  step("hookValidate", hookRuns[0].label, cli, hookRuns[0].args, hookRuns[0].options);
  step("hookUpdateStaged", hookRuns[1].label, cli, hookRuns[1].args, hookRuns[1].options);
  pairedSum("both hooks, time vs update --check --no-cache (≤ 0.1)", updateCheckColdRun, hookRuns);
  restoreCaches();
  rmSync(kept, { recursive: true, force: true });
}
if (!validateOnly && !hooksOnly) {
  step(
    "diffAgainstHead",
    "diff --against HEAD (one law changed; exits 1: a breaking change)",
    cli,
    ["diff", "--against", "HEAD"],
    { expect: [1] },
  );
  git("reset", "-q", "--hard", "bench-base");
  // Every dataset changed: the last record of each JSONL dropped in the working tree, so that no pair is identical
  // and diff reads and compares both sides of every file.
  for (const name of readdirSync(tooling).filter((n) => n.endsWith(".jsonl"))) {
    const text = readFileSync(join(tooling, name), "utf8");
    writeFileSync(join(tooling, name), text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1));
  }
  step(
    "diffAllChanged",
    "diff --against HEAD (every dataset changed: its last record dropped; exits 1)",
    cli,
    ["diff", "--against", "HEAD", "--format", "json"],
    { expect: [1] },
  );
  paired("diff --against HEAD, every dataset changed, time vs validate --no-lock (≤ 1.5)", validateNoLockRun, {
    label: "diff --against HEAD (every dataset changed)",
    command: cli,
    args: ["diff", "--against", "HEAD", "--format", "json"],
    options: { expect: [1] },
  });
  git("reset", "-q", "--hard", "bench-base");

  // Adoption (issue 21): the same laws in a new repository with no manifests yet, adopted in one command (once: a second
  // run would only refresh). Copying the laws is not timed.
  const adoptRepo = join(root, "bench/data", `repository-${mb}mb-adopt`);
  rmSync(adoptRepo, { recursive: true, force: true });
  mkdirSync(adoptRepo, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: adoptRepo });
  cpSync(laws, join(adoptRepo, "laws"), { recursive: true });
  const adoptArgs = [
    "adopt",
    "laws/*",
    "--title-id",
    "{folder|upper}",
    "--name",
    "Gesetz {folder}",
    "--version-date",
    "2024-12-31",
  ];
  adoptArgs.push("--source-text-url", "https://www.legislation.gov.au/{folder}/2024-12-31/text", "--no-cache");
  step("adopt", "adopt 'laws/*' (a new repository: every dataset locked and generated, once)", cli, adoptArgs, {
    cwd: adoptRepo,
    times: 1,
  });
  step("adoptCheck", "adopt --check right after (every dataset up to date)", cli, [...adoptArgs, "--check"], {
    cwd: adoptRepo,
  });
  rmSync(adoptRepo, { recursive: true, force: true });
}

const r = (key) => rows[key]?.seconds ?? Number.NaN;
const throughput = (key) => jsonlBytes / 1e6 / r(key);
const ratios = {
  "validate --no-lock --jobs 1, throughput vs the JSON baseline (≥ 0.55)":
    throughput("validateNoLock1") / throughput("baselineJson"),
  "validate --no-lock (default threads), throughput vs the JSON baseline (≥ 0.6)":
    throughput("validateNoLock") / throughput("baselineJson"),
  "validate with locks, cold (no cache), time vs validate --no-lock": r("validate") / r("validateNoLock"),
  "validate with locks, cold (no cache), time vs update --check --no-cache (≤ 1.0)":
    r("validate") / r("updateCheckCold"),
  "validate with locks, cache warm, time vs validate --no-lock (≤ 1.3)": r("validateWarm") / r("validateNoLock"),
  "update --check cold, time vs markdown-it parse on one thread (≤ 0.67: 1.5 × its speed, issue 41)":
    r("updateCheckCold") / r("baselineMarkdown"),
  "update --check warm, time vs cold": r("updateCheckWarm") / r("updateCheckCold"),
  "update after one amendment, time vs update --check cold": r("updateAfterAmendment") / r("updateCheckCold"),
  "both hooks, time vs update --check cold (≤ 0.1)": (r("hookValidate") + r("hookUpdateStaged")) / r("updateCheckCold"),
  "diff --against HEAD, one law changed, time vs validate --no-lock (near-instant)":
    r("diffAgainstHead") / r("validateNoLock"),
  "diff --against HEAD, every dataset changed, time vs validate --no-lock (≤ 1.5)":
    r("diffAllChanged") / r("validateNoLock"),
  "adopt of every law, time vs update --check cold (the same work, plus writing every manifest and JSONL)":
    r("adopt") / r("updateCheckCold"),
};
const maxRss = Math.max(
  ...Object.entries(rows)
    .filter(([k]) => !k.startsWith("baseline"))
    .map(([, row]) => row.rssMb),
);
const lines = [];
lines.push(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; runs per step: ${runs} (median)`,
);
lines.push(
  `Repository: ${names.length} datasets, ${(markdownBytes / 1e6).toFixed(1)} MB markdown, ${(jsonlBytes / 1e6).toFixed(1)} MB JSONL${validateOnly ? "" : `; amended: laws/${amended}/index.md`}`,
);
lines.push("");
lines.push("| step | seconds | peak RSS MB | exit | load (1 min) before |");
lines.push("|---|---:|---:|---:|---:|");
for (const row of Object.values(rows))
  lines.push(
    `| ${row.label} | ${row.seconds.toFixed(2)} | ${row.rssMb} | ${row.code}${row.ok ? "" : " (unexpected)"} | ${row.load.toFixed(2)} |`,
  );
lines.push("");
lines.push("| ratio | value |");
lines.push("|---|---:|");
for (const [label, value] of Object.entries(ratios).filter(([, v]) => !Number.isNaN(v)))
  lines.push(`| ${label} | ${value.toFixed(2)} |`);
lines.push(`| peak RSS of any command, MB (≤ 400) | ${maxRss} |`);
lines.push("");
if (pairs === 0) lines.push("No rounds of alternating runs (--pairs 0): the targets are the ratios above.");
else lines.push(`The targets from ${pairs} rounds of alternating runs (baseline, then subject):`);
if (pairs > 0) lines.push("", "| ratio | median of the rounds | range | rounds |", "|---|---:|---:|---|");
for (const [label, { median, min, max, rounds }] of Object.entries(pairedRatios))
  lines.push(
    `| ${label} | ${median.toFixed(2)} | ${min.toFixed(2)}–${max.toFixed(2)} | ${rounds.map((r) => r.toFixed(2)).join(", ")} |`,
  );
console.log(lines.join("\n"));
writeFileSync(
  join(root, "bench/data", `repository-${mb}mb.last-run.json`),
  `${JSON.stringify({ rows: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, { label: v.label, seconds: v.seconds, rssMb: v.rssMb, code: v.code }])), ratios, pairedRatios, maxRss }, null, 2)}\n`,
);
if (Object.values(rows).some((row) => !row.ok)) process.exitCode = 1;
