#!/usr/bin/env node
// validate with lock manifests against its targets (issue 31, the cost clause of item 1), for two builds in one run:
// cold, `validate --no-cache` against `update --check --no-cache` (≤ 1.0); warm, `validate` with its cache filled
// against `validate --no-lock` (≤ 1.3). On the publisher's repository of bench/repository.js (build it first:
// `node bench/repository.js --mb 35 --validate-only`), each command a child process, in rounds that alternate every
// subject of both builds, so that both see the same load; the ratio of each round is taken, and their median is the
// figure. `update --check` runs once a round, from this checkout (its code is the same in both builds when only the
// validate path changed: say so when you quote it). Each build's validate keeps its own cache file.
//
//   node bench/validate-cost.js --base <checkout built before> [--mb 35] [--rounds 5]
// Prints a table per build (wall and CPU, user + system, medians) and the paired ratios, with the load.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const base = option("--base");
if (base === undefined) {
  console.error("usage: node bench/validate-cost.js --base <checkout> [--mb 35] [--rounds 5]");
  process.exit(2);
}
const mb = Number(option("--mb", 35));
const rounds = Number(option("--rounds", 5));
const repo = join(root, "bench/data", `repository-${mb}mb`);
if (!existsSync(join(repo, ".tooling/citation-targets"))) {
  console.error(`no repository at ${repo}: run node bench/repository.js --mb ${mb} --validate-only first`);
  process.exit(2);
}
const hook = join(root, "bench/rss-hook.cjs");
const caches = join(repo, "node_modules/.cache/validate-cost");
rmSync(caches, { recursive: true, force: true });
mkdirSync(caches, { recursive: true });

const builds = { before: resolve(base), after: root };
const cli = (checkout) => join(checkout, "bin/citation-targets.js");
const subjects = [{ key: "update", checkout: root, args: ["update", "--check", "--no-cache"] }];
for (const [build, checkout] of Object.entries(builds)) {
  const cache = join(caches, `${build}.json`);
  subjects.push(
    { key: `${build} cold`, checkout, args: ["validate", "--no-cache"] },
    { key: `${build} no-lock`, checkout, args: ["validate", "--no-lock"] },
    { key: `${build} warm`, checkout, args: ["validate", "--cache-location", cache] },
  );
}

/** One run in a child process: wall seconds, CPU seconds (user + system, every thread), exit code. */
function run(subject) {
  const rssFile = join(repo, `.rss-cost-${process.pid}.json`);
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--require", hook, cli(subject.checkout), ...subject.args], {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, BENCH_RSS_FILE: rssFile, CI: "true", NO_COLOR: "1" },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const usage = JSON.parse(readFileSync(rssFile, "utf8"));
  rmSync(rssFile, { force: true });
  if (result.status !== 0) {
    console.error(`${subject.key}: exit ${result.status}\n${result.stderr.slice(0, 2000)}`);
    process.exit(1);
  }
  return { wall, cpu: usage.userSeconds + usage.systemSeconds };
}

// The caches filled once (not measured).
for (const subject of subjects.filter((s) => s.key.endsWith("warm"))) run(subject);
const times = Object.fromEntries(subjects.map((s) => [s.key, []]));
const loads = [];
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0]);
  for (const subject of subjects) {
    const measured = run(subject);
    times[subject.key].push(measured);
    console.error(
      `round ${round + 1} ${subject.key}: ${measured.wall.toFixed(2)} s, CPU ${measured.cpu.toFixed(2)} s (load ${loadavg()[0].toFixed(1)})`,
    );
  }
}
loads.push(loadavg()[0]);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
console.log(`Repository: ${repo}; ${rounds} rounds; load (1 min) ${range(loads)}\n`);
console.log("| subject | wall s (median, range) | CPU s (median, range) |\n|---|---:|---:|");
for (const subject of subjects) {
  const rows = times[subject.key];
  const wall = rows.map((r) => r.wall);
  const cpu = rows.map((r) => r.cpu);
  console.log(
    `| ${subject.key} | ${median(wall).toFixed(2)} (${range(wall)}) | ${median(cpu).toFixed(2)} (${range(cpu)}) |`,
  );
}
console.log("\n| ratio, medians of the rounds' ratios (range) | before | after |\n|---|---:|---:|");
const ratio = (over, under, field) => {
  const values = times[over].map((r, i) => r[field] / times[under][i][field]);
  return `${median(values).toFixed(2)} (${range(values)})`;
};
for (const field of ["wall", "cpu"]) {
  console.log(
    `| cold: validate --no-cache / update --check --no-cache, ${field} (≤ 1.0) | ${ratio("before cold", "update", field)} | ${ratio("after cold", "update", field)} |`,
  );
  console.log(
    `| warm: validate / validate --no-lock, ${field} (≤ 1.3) | ${ratio("before warm", "before no-lock", field)} | ${ratio("after warm", "after no-lock", field)} |`,
  );
}
