#!/usr/bin/env node
// Start-up: what a command costs on a tiny input over starting bare `node`. Rounds of alternating runs: in each
// round, for each command, `node -e 0` and then the command (the built bin, as a user runs it), so that the load of
// the machine falls on both alike. Prints the median wall time of each, its difference to bare node (the median of
// bare node over all rounds, and the median of the paired differences), and the CPU time (user + system) the child
// used, from the kernel's count of waited-for children (/proc/self/stat, 10 ms ticks; absent elsewhere). The target
// (bench/RESULTS.md): every command within 100 ms of bare node. With `--against DIR` (another built checkout, e.g. the
// commit before a change), each round also runs that checkout's bin after this one's, and its rows follow (marked
// "before"), so that two builds are compared under the same load; each row of this checkout then has two more columns:
// the median of its run's wall time less that of the other checkout's run in the same round, and the ratio of the two
// paired differences over bare node (this one's over the other's).
//
//   npm run bench:startup -- [--pairs N]        (default 20 rounds; after `npm run build`)
//   node bench/startup.js [--pairs N] [--only NAME] [--against DIR] [--json]
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const pairs = Number(option("--pairs", "20"));
if (!Number.isInteger(pairs) || pairs < 1) {
  console.error("startup: --pairs takes a whole number of rounds, 1 or more");
  process.exit(2);
}
const only = option("--only", undefined);
const bin = join(root, "bin/citation-targets.js");
const against = option("--against", undefined);
// The bundle is dist/node/cli.cjs (CommonJS), or dist/node/cli.js in a checkout built before it was.
for (const checkout of against === undefined ? [root] : [root, against])
  if (!existsSync(join(checkout, "dist/node/cli.cjs")) && !existsSync(join(checkout, "dist/node/cli.js"))) {
    console.error(`startup: ${join(checkout, "dist/node/cli.cjs")} is missing: run \`npm run build\` there first`);
    process.exit(2);
  }
const bins =
  against === undefined
    ? [{ bin, label: "" }]
    : [
        { bin, label: "" },
        { bin: join(against, "bin/citation-targets.js"), label: " (before)" },
      ];

// A tiny dataset to lock, in a folder of its own outside any repository (bench/data is git-ignored but inside this
// one: a copy under it would be read as a path of this repository, which is what a user's run does too).
const data = join(root, "bench/data/startup");
rmSync(data, { recursive: true, force: true });
mkdirSync(data, { recursive: true });
cpSync(join(root, "fixtures/datasets/example-act"), join(data, "example-act"), { recursive: true });

const tooling = ".tooling/citation-targets";
const commands = [
  { name: "--version", argv: ["--version"], cwd: root },
  // validate and update keep a cache per build (its file names the code it holds entries of): warm after the warm-up
  // run, as a repeated run finds it, and one per bin, so that two builds compared do not spoil each other's.
  {
    name: "validate mvfg.jsonl (with its lock)",
    argv: ["validate", `${tooling}/mvfg.jsonl`],
    cache: "validate",
    cwd: root,
  },
  { name: "validate --no-lock mvfg.jsonl", argv: ["validate", "--no-lock", `${tooling}/mvfg.jsonl`], cwd: root },
  {
    name: "generate --check mvfg",
    argv: ["generate", `${tooling}/mvfg.lock.json`, "--check", `${tooling}/mvfg.jsonl`],
    cwd: root,
  },
  { name: "lock example-act (3 files)", argv: ["lock", "example-act"], cwd: data },
  { name: "lock --check mvfg", argv: ["lock", "fixtures/datasets/mvfg", "--check"], cwd: root },
  { name: "update --check (the two example datasets)", argv: ["update", "--check"], cache: "update", cwd: root },
  { name: "diff mvfg.jsonl mvfg.jsonl", argv: ["diff", `${tooling}/mvfg.jsonl`, `${tooling}/mvfg.jsonl`], cwd: root },
].filter((command) => only === undefined || command.name.startsWith(only));

/** Waited-for children's CPU time so far, in ms (fields 16 and 17 of /proc/self/stat), or undefined off Linux. */
function childrenCpu() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // field 3 onwards
    return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** One run: wall ms and CPU ms; its output, to check every run of a command says the same. */
function run(argv, cwd) {
  const cpuBefore = childrenCpu();
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, argv, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpu();
  if (child.status !== 0) {
    console.error(`startup: node ${argv.join(" ")} exited ${child.status}:\n${child.stderr}`);
    process.exit(1);
  }
  return {
    wall,
    cpu: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    output: child.stdout + child.stderr,
  };
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const uptime = () => {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
};

const loadBefore = uptime();
const bare = { wall: [], cpu: [] };
const results = commands.flatMap((command) =>
  bins.map(({ bin, label }, index) => ({
    ...command,
    argv:
      command.cache === undefined
        ? command.argv
        : [...command.argv, "--cache-location", join(data, `${command.cache}-cache-${index}.json`)],
    name: `${command.name}${label}`,
    bin,
    wall: [],
    cpu: [],
    paired: [],
    outputs: new Set(),
  })),
);
// One warm-up of each, not counted: the first run reads the files from disk.
run(["-e", "0"], root);
for (const result of results) run([result.bin, ...result.argv], result.cwd);
for (let round = 0; round < pairs; round++) {
  for (const result of results) {
    const node = run(["-e", "0"], root);
    const command = run([result.bin, ...result.argv], result.cwd);
    bare.wall.push(node.wall);
    if (node.cpu !== undefined) bare.cpu.push(node.cpu);
    result.wall.push(command.wall);
    if (command.cpu !== undefined) result.cpu.push(command.cpu);
    result.paired.push(command.wall - node.wall);
    result.outputs.add(command.output);
  }
}
// With --against: each command's run here less the other checkout's in the same round (they follow each other).
const againstOf = new Map();
if (bins.length === 2)
  for (let index = 0; index < results.length; index += 2)
    againstOf.set(results[index], {
      before: results[index + 1],
      differences: results[index].wall.map((wall, round) => wall - results[index + 1].wall[round]),
    });
const loadAfter = uptime();
rmSync(data, { recursive: true, force: true });

const bareWall = median(bare.wall);
const rows = results.map((result) => ({
  command: result.name,
  wallMs: Math.round(median(result.wall)),
  overBareMs: Math.round(median(result.wall) - bareWall),
  pairedOverBareMs: Math.round(median(result.paired)),
  cpuMs: result.cpu.length > 0 ? Math.round(median(result.cpu)) : undefined,
  sameOutput: result.outputs.size === 1,
  ...(againstOf.has(result)
    ? {
        againstBeforeMs: Math.round(median(againstOf.get(result).differences)),
        pairedRatio: Number((median(result.paired) / median(againstOf.get(result).before.paired)).toFixed(2)),
      }
    : {}),
}));
const summary = {
  node: process.version,
  rounds: pairs,
  loadBefore,
  loadAfter,
  bare: { wallMs: Math.round(bareWall), cpuMs: bare.cpu.length > 0 ? Math.round(median(bare.cpu)) : undefined },
  commands: rows,
};
if (args.includes("--json")) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  const cpu = (ms) => (ms === undefined ? "—" : String(ms));
  console.log(`Node ${process.version}, ${pairs} rounds; load average before ${loadBefore}, after ${loadAfter}`);
  console.log("");
  const compared = bins.length === 2;
  const more = (row) =>
    compared ? ` ${row.againstBeforeMs === undefined ? "— | —" : `${row.againstBeforeMs} | ${row.pairedRatio}`} |` : "";
  console.log(
    `| command | median wall ms | over bare node ms | paired difference ms | median CPU ms |${compared ? " less before, paired ms | paired difference / before's |" : ""}`,
  );
  console.log(`|---|---:|---:|---:|---:|${compared ? "---:|---:|" : ""}`);
  console.log(
    `| \`node -e 0\` | ${summary.bare.wallMs} | — | — | ${cpu(summary.bare.cpuMs)} |${compared ? " — | — |" : ""}`,
  );
  for (const row of rows)
    console.log(
      `| ${row.command} | ${row.wallMs} | ${row.overBareMs} | ${row.pairedOverBareMs} | ${cpu(row.cpuMs)} |${more(row)}${row.sameOutput ? "" : " (outputs differ between runs!)"}`,
    );
}
if (rows.some((row) => !row.sameOutput)) process.exitCode = 1;
