#!/usr/bin/env node
// Benchmark of `diff` (never a timed test). After `npm run build`:
//   node bench/diff-bench.js            two ~100 MB versions of one dataset file (env BENCH_DIFF_MB sets the size)
// Writes under bench/data/diff-<MB>/ (git-ignored): old.jsonl, a synthetic act of parts, divisions and section
// files, and new.jsonl, the next version of it: sections amended, retitled, repealed, inserted and moved
// (renamed file, same text), every positional and version-scoped field shifted as a regeneration would.
// Then, each in its own child process so that each peak RSS is its own:
//   baseline   read both files, split lines, JSON.parse every line (the least any diff must do)
//   diff       the library's diff() of old vs new, and its JSON report
//   diff --against HEAD   the same pair with the old file read from a git commit (git cat-file, streamed)
// and prints time and peak RSS of each, with the change counts.
import { execFileSync, spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import canonicalize from "canonicalize";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const MB = Number(process.env.BENCH_DIFF_MB ?? 100);
const data = join(root, `bench/data/diff-${MB}`);

if (process.argv[2] === "--child") {
  const [, , , what, ...args] = process.argv;
  const started = performance.now();
  let result;
  if (what === "baseline") {
    let records = 0;
    for (const file of args) {
      let rest = "";
      for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop();
        for (const line of lines) if (line !== "") JSON.parse(line) && records++;
      }
    }
    result = { records };
  } else {
    const { diff } = await import("../dist/node/diff/diff.js");
    const { diffFormatters } = await import("../dist/formatters/diff.js");
    const { createColor } = await import("../dist/formatters/color.js");
    const report = what === "git" ? await diff({ cwd: args[0], against: "HEAD" }) : await diff({ paths: args });
    const json = diffFormatters.json(report, { color: createColor(0) });
    const moves = report.pairs.flatMap((pair) => pair.changes).filter((change) => change.likelyMoves).length;
    result = { summary: report.summary, moves, reportBytes: json.length };
  }
  const usage = process.resourceUsage();
  console.log(
    JSON.stringify({
      ...result,
      seconds: (performance.now() - started) / 1000,
      maxRssMb: Math.round(usage.maxRSS / 1024),
    }),
  );
  process.exit(0);
}

const { deriveCitationTargetId, deriveTextDigest } = await import("../dist/index.js");
const URL_ = (date) => `https://www.legislation.gov.au/C2099A00001/${date}/text`;
const SENTENCE =
  "(1) A person must not engage in conduct that contravenes a requirement of this section unless the person holds an authorisation. ";
const BODY = `${SENTENCE.repeat(6)}\n\n(2) Subsection (1) does not apply to conduct engaged in under a law of a State or Territory.\n`;

/** The records of one version, in file order; `edit(i)` says what the version does to section i. */
function* version(count, edit) {
  let documentOrder = 0;
  let preorder = 0;
  for (let i = 1; i <= count; i++) {
    const part = Math.floor((i - 1) / 1000) + 1;
    const division = Math.floor(((i - 1) % 1000) / 100) + 1;
    if ((i - 1) % 1000 === 0)
      yield {
        container: `part-${part}`,
        heading: `Part ${part}—Heading of part ${part}`,
        trail: [],
        preorder: preorder++,
      };
    if ((i - 1) % 100 === 0)
      yield {
        container: `part-${part}/division-${division}`,
        heading: `Division ${division}—Heading of division ${division}`,
        trail: [`Part ${part}—Heading of part ${part}`],
        preorder: preorder++,
      };
    const what = edit(i);
    if (what === "removed") continue;
    const trail = [`Part ${part}—Heading of part ${part}`, `Division ${division}—Heading of division ${division}`];
    const file = what === "moved" ? `section-${i}-renumbered.md` : `section-${i}.md`;
    const heading = what === "retitled" ? `${i} Section ${i} as retitled` : `${i} Section ${i}`;
    const body = what === "amended" ? `${BODY}\n(3) This subsection was inserted by the amending Act.\n` : BODY;
    yield {
      path: `part-${part}/division-${division}/${file}`,
      local: String(i),
      heading,
      trail,
      markdown: `##### ${heading}\n\n${body}`,
      documentOrder: documentOrder++,
    };
    if (what === "inserted")
      yield {
        path: `part-${part}/division-${division}/section-${i}a.md`,
        local: `${i}a`,
        heading: `${i}A Section ${i}A`,
        trail,
        markdown: `##### ${i}A Section ${i}A\n\n${BODY}`,
        documentOrder: documentOrder++,
      };
  }
}

function record(target, datasetDigest, date) {
  const shared = {
    datasetDigest,
    name: "Benchmark Act 2099",
    schemaVersion: "1.0.0",
    slug: "bench",
    sourceTextUrl: URL_(date),
    textDigestAlgorithm: "sha256",
    titleId: "C2099A00001",
    versionDate: date,
  };
  if (target.container) {
    const address = `bench/${target.container}/`;
    return {
      ...shared,
      artifactRelativePath: target.container,
      canonicalPath: target.container,
      citationAddress: address,
      citationTargetId: deriveCitationTargetId(datasetDigest, address),
      headingText: target.heading,
      headingTrail: target.trail,
      sourceArtifactKind: "structural-container",
      structuralPath: target.container.split("/"),
      structuralPreorderIndex: target.preorder,
      targetKind: "structural-container",
      textDigest: deriveTextDigest(target.heading),
    };
  }
  const address = `bench/${target.path}#${target.local}`;
  const structuralPath = [...target.path.replace(/\.md$/, "").split("/"), target.local];
  return {
    ...shared,
    artifactRelativePath: target.path,
    canonicalPath: structuralPath.join("/"),
    citationAddress: address,
    citationTargetId: deriveCitationTargetId(datasetDigest, address),
    documentOrder: target.documentOrder,
    headingText: target.heading,
    headingTrail: target.trail,
    markdown: target.markdown,
    sourceArtifactBlockEndExclusive: 4,
    sourceArtifactBlockStartIndex: 0,
    sourceArtifactKind: "file",
    sourceDocumentPath: target.path,
    sourceIndexKind: "body-block",
    structuralPath,
    targetKind: "markdown-artifact",
    textDigest: deriveTextDigest(target.markdown),
  };
}

async function write(file, targets, datasetDigest, date) {
  const out = createWriteStream(file);
  for (const target of targets) {
    if (!out.write(`${canonicalize(record(target, datasetDigest, date))}\n`))
      await new Promise((r) => out.once("drain", r));
  }
  await new Promise((r) => out.end(r));
}

const EDITS = (i) =>
  i % 997 === 0
    ? "removed"
    : i % 1009 === 0
      ? "inserted"
      : i % 1000 === 500
        ? "amended"
        : i % 2003 === 7
          ? "retitled"
          : i % 4999 === 0
            ? "moved"
            : undefined;

// Sections per MB, measured on a small sample.
const sample = join(data, "sample.jsonl");
mkdirSync(data, { recursive: true });
await write(
  sample,
  version(1000, () => undefined),
  "a".repeat(64),
  "2099-01-01",
);
const sections = Math.round((1000 * MB * 1e6) / statSync(sample).size);
rmSync(sample);
const oldFile = join(data, "old.jsonl");
const newFile = join(data, "new.jsonl");
const stamp = join(data, `built-${sections}`);
if (!existsSync(stamp)) {
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  await write(
    oldFile,
    version(sections, () => undefined),
    "a".repeat(64),
    "2099-01-01",
  );
  await write(newFile, version(sections, EDITS), "b".repeat(64), "2099-07-01");
  createWriteStream(stamp).end();
}

function measure(...args) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(`${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").pop());
}

const sizes = `${(statSync(oldFile).size / 1e6).toFixed(0)} MB and ${(statSync(newFile).size / 1e6).toFixed(0)} MB`;
console.log(
  `machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
console.log(`two versions of one dataset file, ${sizes}, ${sections} sections`);
const baseline = measure("baseline", oldFile, newFile);
console.log(
  `  baseline (read both, split lines, JSON.parse): ${baseline.seconds.toFixed(2)} s, peak RSS ${baseline.maxRssMb} MB (${baseline.records} records)`,
);
const result = measure("diff", oldFile, newFile);
const counts = Object.entries(result.summary.byKind)
  .map(([kind, n]) => `${kind} ${n}`)
  .join(", ");
console.log(
  `  diff old new:         ${result.seconds.toFixed(2)} s, peak RSS ${result.maxRssMb} MB, ${(baseline.seconds / result.seconds).toFixed(2)}x the baseline; ${counts} (${result.moves} with a likely move)`,
);

// The same pair with the old file read from git.
const repository = join(data, "repository");
const tracked = join(repository, ".tooling/citation-targets/bench.jsonl");
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.org",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.org",
};
if (!existsSync(join(repository, ".git"))) {
  mkdirSync(dirname(tracked), { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repository, env });
  execFileSync("cp", [oldFile, tracked]);
  execFileSync("git", ["add", "-A"], { cwd: repository, env });
  execFileSync("git", ["commit", "-q", "-m", "old"], { cwd: repository, env });
}
execFileSync("cp", [newFile, tracked]);
const git = measure("git", repository);
console.log(
  `  diff --against HEAD:  ${git.seconds.toFixed(2)} s, peak RSS ${git.maxRssMb} MB (the old file streamed from git cat-file, twice)`,
);
