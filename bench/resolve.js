#!/usr/bin/env node
// `resolve` (README, "resolve"): a synthetic repository shaped like the German federal corpus (6,636 laws, one dataset
// each, about 20 heading targets a law: 132,247 in the real corpus), written straight as lock manifests and JSONL under
// `.tooling/citation-targets/` (resolve reads only a manifest's fields and aliases and each record's address, id and
// heading, so no markdown is generated or parsed; each record carries a text of --text-bytes, default 600, for the
// cold read). With --units, each § also has Absatz, Nummer and Buchstabe unit targets (`#§-12/abs-1/nr-2/bst-a`).
//
// Reported, from alternating rounds in one run, with the load average, each as wall time and as CPU time (this thread's
// for what runs in this process, the child's from /proc/self/stat for the command; on a shared machine the wall time
// grows with the load, the CPU time much less):
//   - the warm load: the index of every dataset loaded from its cache (node_modules/.cache/citation-targets/
//     resolve.json), in this process (loadResolveIndex), and the whole command (`citation-targets resolve` of one
//     citation, a child process each, the built bin) beside bare `node -e 0`;
//   - the cold load (--no-cache), in this process;
//   - citations a second once loaded, on this one thread: a mix of every form (§ with units and a Roman Absatz, ranges,
//     ff., Art., Australian s 6(1)(a), the law first, unknown laws, no law, designations not there).
//
//   npm run bench:resolve -- [--laws 6636] [--units] [--rounds 5] [--citations 200000] [--text-bytes 600]
// Results: stdout (a markdown table); the repository stays in bench/data/resolve-<laws>[-units]/ for the next run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const laws = Number(option("--laws", 6636));
const rounds = Number(option("--rounds", 5));
const citationCount = Number(option("--citations", 200000));
const textBytes = Number(option("--text-bytes", 600));
const units = args.includes("--units");
for (const [name, value] of [
  ["--laws", laws],
  ["--rounds", rounds],
  ["--citations", citationCount],
]) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`resolve bench: ${name} takes a whole number, 1 or more`);
    process.exit(2);
  }
}
if (!existsSync(join(root, "dist/node/resolve/resolve.js"))) {
  console.error("resolve bench: dist/ is missing: run `npm run build` first");
  process.exit(2);
}
const { loadResolveIndex } = await import(pathToFileURL(join(root, "dist/node/resolve/resolve.js")).href);
const { deriveCitationTargetId } = await import(pathToFileURL(join(root, "dist/core/digest.js")).href);

/** A small PRNG (mulberry32): the same repository on every machine. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERSION = 1;
const repo = join(root, "bench/data", `resolve-${laws}${units ? "-units" : ""}`);
const tooling = join(repo, ".tooling/citation-targets");
const stamp = join(repo, "bench-version.json");
const wanted = JSON.stringify({ VERSION, laws, units, textBytes });

/** Each law: slug, alias, its sections (with an inserted `a` now and then), some structural units; in document order. */
function lawOf(n, random) {
  const slug = `law-${n}`;
  const alias = `G${n}G`;
  const sections = 3 + Math.floor(random() * 30); // about 18 on average, as in the corpus with its structure headings
  const headings = [`gesetz-nr-${n}`];
  for (let s = 1; s <= sections; s++) {
    if (s % 8 === 1) headings.push(`abschnitt-${Math.ceil(s / 8)}`);
    headings.push(`§-${s}`);
    if (random() < 0.08) headings.push(`§-${s}a`);
  }
  return { slug, alias, headings };
}

function writeRepository() {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(tooling, { recursive: true });
  mkdirSync(join(repo, ".git"));
  mkdirSync(join(repo, "node_modules"));
  const random = prng(40);
  const text = "Der Text der Vorschrift. ".repeat(Math.ceil(textBytes / 25)).slice(0, textBytes);
  let records = 0;
  for (let n = 1; n <= laws; n++) {
    const { slug, alias, headings } = lawOf(n, random);
    const digest = deriveCitationTargetId("0".repeat(64), slug).slice(0, 64);
    const manifest = {
      lockVersion: 1,
      slug,
      titleId: `BJNR${String(n).padStart(9, "0")}`,
      name: `Gesetz über Beispiele Nr. ${n}`,
      versionDate: "2024-12-31",
      sourceTextUrl: `https://www.legislation.gov.au/${slug}/text`,
      datasetRoot: `../../laws/${slug}`,
      aliases: [alias],
      artifacts: [{ path: "index.md", sha256: digest }],
      datasetDigest: digest,
    };
    writeFileSync(join(tooling, `${slug}.lock.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    const lines = [];
    const line = (local, heading) => {
      const citationAddress = `${slug}/index.md#${local}`;
      lines.push(
        JSON.stringify({
          citationAddress,
          citationTargetId: deriveCitationTargetId(digest, citationAddress),
          datasetDigest: digest,
          headingText: heading,
          markdown: `## ${heading}\n\n${text}\n`,
          slug,
          targetKind: "markdown-artifact",
        }),
      );
    };
    for (const local of headings) {
      line(local, local.replace("§-", "§ "));
      if (!units || !local.startsWith("§-")) continue;
      for (let a = 1; a <= 3; a++) {
        line(`${local}/abs-${a}`, "");
        if (a === 2)
          for (let k = 1; k <= 2; k++) {
            line(`${local}/abs-${a}/nr-${k}`, "");
            line(`${local}/abs-${a}/nr-${k}/bst-a`, "");
          }
      }
    }
    records += lines.length;
    writeFileSync(join(tooling, `${slug}.jsonl`), `${lines.join("\n")}\n`);
  }
  writeFileSync(stamp, wanted);
  return records;
}

/** The citations resolved: every form, most of them matching, some not. */
function citationsOf(count) {
  const random = prng(7);
  const forms = [
    (n, s) => `§ ${s} G${n}G`,
    (n, s) => `§ ${s} Abs. 2 Nr. 1 lit. a G${n}G`,
    (n, s) => `§ ${s} II 2 G${n}G`,
    (n, s) => `§ ${s} Abs. 1 S. 2 Gesetz über Beispiele Nr. ${n}`,
    (n, s) => `§§ ${s} bis ${s + 3} G${n}G`,
    (n, s) => `§ ${s} ff. BJNR${String(n).padStart(9, "0")}`,
    (n, s) => `G${n}G § ${s} Abs. 3`,
    (n, s) => `Art. ${s} Abs. 1 UAbs. 1 lit. a G${n}G`, // no such article: no match
    (n, s) => `s ${s}(1)(a) law-${n}`, // a § is no Australian section: no match
    (_n, s) => `§ ${s} XYZG`, // an unknown law
    (_n, s) => `§ ${s} Abs. 1`, // no law
  ];
  const out = [];
  for (let k = 0; k < count; k++) {
    const n = 1 + Math.floor(random() * laws);
    const s = 1 + Math.floor(random() * 20);
    out.push(forms[k % forms.length](n, s));
  }
  return out;
}

/** This thread's CPU time so far, in ms (user + system). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Waited-for children's CPU time so far, in ms (fields 16 and 17 of /proc/self/stat), or NaN off Linux. */
function childrenCpu() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${value.toFixed(0)} ms`;

let records;
if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) records = undefined;
else {
  const started = performance.now();
  records = writeRepository();
  console.error(`wrote ${laws} datasets (${records} records) in ${ms(performance.now() - started)}`);
  await new Promise((done) => setTimeout(done, 2100)); // the cache trusts files left alone for 2 s
}
const cache = join(repo, "node_modules/.cache/citation-targets/resolve.json");
const bin = join(root, "bin/citation-targets.js");
const load = [loadavg()[0]];

// The cache filled once (a cold load that writes it).
rmSync(cache, { force: true });
const filled = performance.now();
const first = await loadResolveIndex({ cwd: repo });
const fillMs = performance.now() - filled;
const datasets = first.index.size;

// Each step's wall time and CPU time: on a shared machine the wall time grows with the load, the CPU time far less.
const steps = { warm: [], cold: [], command: [], bare: [] };
const timed = async (name, work) => {
  const wall = performance.now();
  const cpu = cpuNow();
  await work();
  steps[name].push({ wall: performance.now() - wall, cpu: cpuNow() - cpu });
};
const child = (name, argv) => {
  const wall = performance.now();
  const cpu = childrenCpu();
  const run = spawnSync(process.execPath, argv, { cwd: repo, encoding: "utf8" });
  steps[name].push({ wall: performance.now() - wall, cpu: childrenCpu() - cpu });
  if (run.status !== 0) {
    console.error(`resolve bench: ${argv.join(" ")} failed (${run.status}): ${run.stderr}`);
    process.exit(1);
  }
};
let index;
for (let round = 0; round < rounds; round++) {
  await timed("warm", async () => {
    ({ index } = await loadResolveIndex({ cwd: repo }));
  });
  await timed("cold", () => loadResolveIndex({ cwd: repo, cache: false }));
  child("bare", ["-e", "0"]);
  child("command", [bin, "resolve", "§ 1 G1G"]);
  load.push(loadavg()[0]);
}

// Citations a second, once loaded: the same list each round (the first round also makes the maps of the datasets it
// looks in), by wall time and by CPU time.
const citations = citationsOf(citationCount);
const rates = [];
const cpuRates = [];
const outcomes = { match: 0, ambiguous: 0, "no-match": 0 };
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  const cpu = cpuNow();
  for (const citation of citations) {
    const result = index.resolve(citation);
    if (round === 0) outcomes[result.outcome]++;
  }
  rates.push(citations.length / ((performance.now() - started) / 1000));
  cpuRates.push(citations.length / ((cpuNow() - cpu) / 1000));
}
load.push(loadavg()[0]);

const cacheBytes = readFileSync(cache).length;
console.log(
  `resolve: ${datasets} datasets${units ? " with unit targets" : ""}${records !== undefined ? ` (${records} records)` : ""}, ${rounds} rounds; ${cpus().length} cores, load ${load.map((l) => l.toFixed(1)).join(" → ")}`,
);
console.log("");
const row = (label, name) => {
  const walls = steps[name].map((t) => t.wall);
  const cpus = steps[name].map((t) => t.cpu);
  console.log(
    `| ${label} | ${ms(median(walls))} | ${ms(median(cpus))} | ${steps[name].map((t) => `${t.wall.toFixed(0)}/${t.cpu.toFixed(0)}`).join(", ")} |`,
  );
};
console.log("| step | wall (median) | CPU (median) | rounds (wall/CPU ms) |");
console.log("|---|---|---|---|");
row("load, index warm (in process)", "warm");
row("`resolve` of one citation, index warm (the built bin)", "command");
row("bare `node -e 0`", "bare");
row("load, no cache (in process)", "cold");
console.log(`| first load, writing the cache (${(cacheBytes / 2 ** 20).toFixed(1)} MiB) | ${ms(fillMs)} | | 1 |`);
console.log(
  `| citations a second, once loaded (one thread; ${citations.length} citations: ${outcomes.match} match, ${outcomes.ambiguous} ambiguous, ${outcomes["no-match"]} no match) | ${Math.round(median(rates)).toLocaleString("en")} | ${Math.round(median(cpuRates)).toLocaleString("en")} | ${rates.map((r, k) => `${Math.round(r)}/${Math.round(cpuRates[k])}`).join(", ")} |`,
);
