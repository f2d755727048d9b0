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
