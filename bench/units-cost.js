// The cost of units below the heading (issue 39): `generate` of one whole statute book (the realistic corpus, one
// dataset) with `"units": true` against `generate` of the same book without, in alternating rounds in one run (the
// machine's load drifts: each round measures both). Run as `node bench/realistic.js --units [--mb 150] [--runs 3]`.
// Target: with units ≤ 1.5 × without. Also checks that both outputs validate against their manifests.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { CORPUS_DATASET_FLAGS, CORPUS_SLUG } from "./dataset-flags.js";

/**
 * `run(label, script, args)` runs one step in a child (realistic.js); `fail(text)` records a failed check. Returns the
 * figures.
 */
export function unitsCost({ cli, dir, out, runs, run, fail, name }) {
  rmSync(out, { recursive: true, force: true });
  const sides = [
    { key: "without", flags: [], folder: join(out, "without") },
    { key: "with", flags: ["--units"], folder: join(out, "with") },
  ];
  for (const side of sides) {
    mkdirSync(side.folder, { recursive: true });
    side.manifest = join(side.folder, `${CORPUS_SLUG}.lock.json`);
    side.jsonl = join(side.folder, `${CORPUS_SLUG}.jsonl`);
    side.times = [];
    side.cpus = [];
    const locked = run(`lock ${side.flags.join(" ")}`, cli, [
      "lock",
      dir,
      ...CORPUS_DATASET_FLAGS,
      ...side.flags,
      "-o",
      side.manifest,
    ]);
    if (!existsSync(side.manifest)) fail(`${name}: lock ${side.flags.join(" ")} wrote no manifest: ${locked.stderr}`);
  }
  const load = [loadavg()[0]];
  for (let round = 0; round < runs; round++) {
    // Alternate which side goes first, so that neither always runs on a warmer cache.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const result = run(`generate (${side.key} units)`, cli, ["generate", side.manifest, "-o", side.jsonl]);
      side.times.push(result.seconds);
      side.cpus.push(result.cpuSeconds);
      side.records = Number(/\((\d+) records\)/.exec(result.stdout + result.stderr)?.[1] ?? Number.NaN);
    }
    load.push(loadavg()[0]);
  }
  for (const side of sides) {
    const validated = run(`validate (${side.key} units)`, cli, [
      "validate",
      "--no-config",
      "--format",
      "json",
      side.jsonl,
    ]);
    try {
      const { summary } = JSON.parse(validated.stdout);
      if (summary.errors !== 0 || summary.records !== side.records)
        fail(`${name}: validate (${side.key} units): ${summary.errors} errors, ${summary.records} records`);
    } catch {
      fail(`${name}: validate (${side.key} units) printed no report`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const [without, withUnits] = sides;
  const ratios = withUnits.times.map((t, i) => t / without.times[i]);
  // CPU time (user + system, every thread) of each run: less sensitive to the machine's load than the time, which the
  // target is on.
  const cpuRatios = withUnits.cpus.map((t, i) => t / without.cpus[i]);
  const figures = {
    runs,
    load: [Math.min(...load), Math.max(...load)],
    cores: cpus().length,
    records: { without: without.records, with: withUnits.records },
    jsonlMb: {
      without: existsSync(without.jsonl) ? readFileSync(without.jsonl).length / 1e6 : Number.NaN,
      with: existsSync(withUnits.jsonl) ? readFileSync(withUnits.jsonl).length / 1e6 : Number.NaN,
    },
    seconds: { without: without.times, with: withUnits.times },
    ratios,
    medianRatio: median(ratios),
    cpuSeconds: { without: without.cpus, with: withUnits.cpus },
    cpuRatios,
    medianCpuRatio: median(cpuRatios),
  };
  const fmt = (x) => x.toFixed(2);
  console.log(`\n## units below the heading: generate with units / without (${name})\n`);
  console.log("| round | without | with units | ratio | CPU without | CPU with units | CPU ratio |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [i, ratio] of ratios.entries())
    console.log(
      `| ${i + 1} | ${fmt(without.times[i])} s | ${fmt(withUnits.times[i])} s | ${fmt(ratio)} | ${fmt(without.cpus[i])} s | ${fmt(withUnits.cpus[i])} s | ${fmt(cpuRatios[i])} |`,
    );
  console.log(
    `\nrecords: ${without.records} without, ${withUnits.records} with units (${fmt(figures.jsonlMb.without)} MB and ${fmt(figures.jsonlMb.with)} MB of JSONL); median ratio ${fmt(figures.medianRatio)} (target ≤ 1.5), of CPU ${fmt(figures.medianCpuRatio)}; load ${fmt(figures.load[0])}–${fmt(figures.load[1])} on ${figures.cores} cores`,
  );
  if (!(figures.medianRatio <= 1.5))
    fail(`${name}: generate with units costs ${fmt(figures.medianRatio)} × without (target ≤ 1.5)`);
  return figures;
}
