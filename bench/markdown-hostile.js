#!/usr/bin/env node
// Hostile markdown through `parseArtifact` (docs/spec.md, sections 5 and 13): each case in its own
// child process with a 1 GiB heap, as `generate -o` runs; wall time, peak RSS, and what came out
// (targets, or the refusal). Times live here, never in the tests (test/markdown-hostile.test.ts).
//   npm run build && node bench/markdown-hostile.js [--dist dist]
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const distArg = args.indexOf("--dist");
const dist = resolve(distArg === -1 ? join(root, "dist") : args[distArg + 1]);

const CASES = {
  "heading of `*a_`, 30 KB": `"# " + "*a_".repeat(10240) + "\\n"`,
  "heading of `*a_`, 60 KB": `"# " + "*a_".repeat(20480) + "\\n"`,
  "heading of `*a_`, 120 KB": `"# " + "*a_".repeat(40960) + "\\n"`,
  "heading of `*a_`, 1 MB": `"# " + "*a_".repeat(349525) + "\\n"`,
  "`x` then a million `=` lines (2 MB)": `"x\\n" + "=\\n".repeat(1000000)`,
  "a million `# N Section N` headings (37 MB)": `Array.from({ length: 1000000 }, (_, i) => "# " + i + " Section " + i + "\\n").join("")`,
  "10 million paragraphs `a` (30 MB)": `"a\\n\\n".repeat(10000000)`,
  // Issue 32, item 7: front matter below its cap grows linearly; 16.6 MB is refused by its size.
  "flow-style YAML front matter, 0.26 MB": `"---\\n{" + Array.from({ length: 7440 }, (_, i) => "k" + i + ": [a, b, {c: d, e: [f, g]}]").join(", ") + "}\\n---\\n# T\\n"`,
  "flow-style YAML front matter, 0.52 MB": `"---\\n{" + Array.from({ length: 14880 }, (_, i) => "k" + i + ": [a, b, {c: d, e: [f, g]}]").join(", ") + "}\\n---\\n# T\\n"`,
  "flow-style YAML front matter, 1.04 MB (just under the cap)": `"---\\n{" + Array.from({ length: 29760 }, (_, i) => "k" + i + ": [a, b, {c: d, e: [f, g]}]").join(", ") + "}\\n---\\n# T\\n"`,
  "flow-style YAML front matter, 16.6 MB": `"---\\n{" + Array.from({ length: 475000 }, (_, i) => "k" + i + ": [a, b, {c: d, e: [f, g]}]").join(", ") + "}\\n---\\n# T\\n"`,
  // Block quotes nested over many lines: linear in depth times lines below the cap, refused above it.
  "5 nested `>` over 100,000 lines": `">>>>> a\\n" + "b\\n".repeat(100000)`,
  "5 nested `>` over 200,000 lines": `">>>>> a\\n" + "b\\n".repeat(200000)`,
  "5 nested `>` over 390,000 lines": `">>>>> a\\n" + "b\\n".repeat(390000)`,
  "2,000 nested `>` then 300,000 lines (604 KB)": `">".repeat(2000) + " a\\n" + "b\\n".repeat(300000)`,
};

if (args[0] === "--case") {
  const { parseArtifact } = await import(pathToFileURL(join(dist, "core/markdown/targets.js")).href);
  const text = new Function(`return ${CASES[args[1]]}`)();
  const started = process.hrtime.bigint();
  let outcome;
  try {
    const targets = parseArtifact(text).targets.length;
    outcome = `${targets} target${targets === 1 ? "" : "s"}`;
  } catch (error) {
    outcome = `refused: ${error.message}`;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ seconds, outcome, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
} else {
  console.log(`| input | time | peak RSS | outcome |\n|---|---|---|---|`);
  for (const name of Object.keys(CASES)) {
    const child = spawnSync(
      process.execPath,
      ["--max-old-space-size=1024", fileURLToPath(import.meta.url), "--case", name, "--dist", dist],
      { encoding: "utf8", timeout: 300_000 },
    );
    const line = child.stdout.trim().split("\n").pop();
    if (child.status !== 0 || !line) {
      console.log(
        `| ${name} | — | — | ${child.signal === "SIGTERM" ? "did not finish in 300 s" : `exit ${child.status ?? child.signal}: ${(child.stderr.match(/FATAL ERROR: [^\n]*/) ?? ["crashed"])[0]}`} |`,
      );
      continue;
    }
    const result = JSON.parse(line);
    console.log(`| ${name} | ${result.seconds.toFixed(2)} s | ${result.maxRssMb.toFixed(0)} MB | ${result.outcome} |`);
  }
}
