// What the worker threads of `generate` cost, alone and on one thread: every artifact of a lock manifest parsed and its
// lines written as bytes (parseArtifactBytes, writeArtifactByteLines, batchEncoder), with the built modules of one or
// more checkouts, each in a process of its own, in alternating rounds. No worker hand-off, no main thread, no output
// file: a change to the workers' code shows within 2 to 3 % here, where `generate`'s three threads on two vCPUs vary
// by 10 % (bench/RESULTS.md, "Units").
//
//   node bench/worker-lines.js <lock manifest> [--rounds 3] [checkout …]     (default checkout: this one)
//
// Each checkout must be built (`npm run build`). Buffers are never sent back here, so each batch's lines go to new
// memory: the figure is for comparing builds, not a share of a `generate` run.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);

if (args[0] === "--child") {
  const [, checkout, manifestPath] = args;
  const dist = pathToFileURL(join(checkout, "dist")).href;
  const { parseArtifactBytes } = await import(`${dist}/core/records/parse-artifact.js`);
  const { sourceBytesOf, targetLineTemplate, writeArtifactByteLines } = await import(
    `${dist}/core/records/generate.js`
  );
  const { batchEncoder } = await import(`${dist}/node/generate/encoded-lines.js`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const root = resolve(dirname(manifestPath), manifest.datasetRoot ?? ".");
  const units = manifest.units === true;
  const files = manifest.artifacts.map((artifact) => [artifact, readFileSync(join(root, artifact.path))]);
  const started = process.hrtime.bigint();
  let encoder = batchEncoder();
  let lines = 0;
  for (const [i, [artifact, bytes]] of files.entries()) {
    const { text, parsed } = parseArtifactBytes(artifact, bytes, {}, false, units);
    const source = sourceBytesOf(text, bytes);
    const made = encoder.add(targetLineTemplate(manifest, artifact), (line) =>
      writeArtifactByteLines(manifest, artifact, parsed, source, line),
    );
    lines += made.ends.length / 4;
    // Batches of 32 artifacts, as the pool sends them.
    if (i % 32 === 31) {
      encoder.done();
      encoder = batchEncoder();
    }
  }
  encoder.done();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // CPU of the process (user + system, the V8 threads' GC and compiling included): steadier than the time.
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ seconds, cpu: (user + system) / 1e6, lines })}\n`);
} else {
  const manifest = args.find((a) => !a.startsWith("--") && a.endsWith(".json"));
  if (manifest === undefined) {
    console.error("usage: node bench/worker-lines.js <lock manifest> [--rounds 3] [checkout …]");
    process.exit(2);
  }
  const at = args.indexOf("--rounds");
  const rounds = at === -1 ? 3 : Number(args[at + 1]);
  const checkouts = args.filter((a, i) => a !== manifest && !a.startsWith("--") && i !== at + 1);
  if (checkouts.length === 0) checkouts.push(join(here, ".."));
  const times = new Map(checkouts.map((c) => [c, []]));
  const cpus = new Map(checkouts.map((c) => [c, []]));
  let lines;
  for (let round = 0; round < rounds; round++)
    for (const checkout of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", checkout, manifest], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      const figure = JSON.parse(out);
      times.get(checkout).push(figure.seconds);
      cpus.get(checkout).push(figure.cpu);
      lines = figure.lines;
    }
  console.log(`${lines} lines; seconds a run and CPU seconds of the process, ${rounds} alternating rounds:`);
  const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1].toFixed(2);
  for (const [checkout, list] of times) {
    const cpu = cpus.get(checkout);
    console.log(
      `  ${checkout}: median ${median(list)} (${list.map((t) => t.toFixed(2)).join(", ")}); CPU ${median(cpu)} (${cpu.map((t) => t.toFixed(2)).join(", ")})`,
    );
  }
}
