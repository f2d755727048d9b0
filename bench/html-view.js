#!/usr/bin/env node
// The two HTML pages in headless Chromium. The dataset page (`citation-targets view`, issue 24): how
// long the page of the largest law takes to render and to answer a search, and how that grows with
// the dataset. The amendment page (`diff --format html`, issue 35): the page of a long amendment
// (bench/long-amendment.js: 900 articles reworded, 29 repealed, one kind-wide approval), how long
// the command takes to write it and the browser to load it, and how tall it is.
//
//   npm run build && node bench/html-view.js [--runs 5] [--scales 1,4,16] [--pages view,amendment]
//       [--changes 900,3600] [--chromium /usr/bin/chromium]
//
// The law is the corpus's largest (bench/corpus.js: SGB 5, 2.2 MB of German-style markdown), locked and
// generated as one dataset with the library. Larger datasets are that law's targets repeated (addresses
// made unique), which is what a page of N times as many targets of the same shape costs. For each page:
// the time from navigation to the load event and to the first contentful paint (the browser's own
// timings), the time a search takes until the next frame is painted, and the time a text takes to
// open. Past view's default --max-text-bytes (16 MiB) the page is measured as view writes it: without
// the texts. Medians of --runs page loads, each in a fresh page. Prints a table and a JSON line.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { writeCorpus } from "./corpus.js";
import { writeLongAmendment } from "./long-amendment.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const runs = Number(option("--runs", "5"));
const scales = option("--scales", "1,4,16").split(",").map(Number);
const executablePath = option("--chromium", process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");
const pages = option("--pages", "view,amendment").split(",");
const changeCounts = option("--changes", "900").split(",").map(Number);
const work = join(root, "bench/data/html-view");

const { lock, generate } = await import(pathToFileURL(join(root, "dist/index.js")).href);
const { viewDataset, DEFAULT_MAX_TEXT_BYTES } = await import(pathToFileURL(join(root, "dist/node/view/view.js")).href);
const { renderDatasetPage } = await import(pathToFileURL(join(root, "dist/formatters/dataset-html.js")).href);

// The largest law of a small corpus (a 5 MB corpus holds SGB 5 and small laws).
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
writeCorpus({ mb: 5, seed: "realistic-1", dir: join(work, "laws") });
const lawDir = join(work, "laws/sgb_5");
const manifest = join(work, "sgb-5.lock.json");
await lock({
  dir: lawDir,
  cwd: work,
  output: manifest,
  slug: "sgb-5",
  titleId: "BJNR024820988",
  name: "Sozialgesetzbuch (SGB) Fünftes Buch (V)",
  versionDate: "2024-12-31",
  sourceTextUrl: "https://www.legislation.gov.au/BJNR024820988/2024-12-31/text",
});
const jsonl = join(work, "sgb-5.jsonl");
await generate({ manifest, output: jsonl, cwd: work });
const started = performance.now();
const { html, view } = await viewDataset({ cwd: work, path: jsonl });
const renderMs = performance.now() - started;
const markdownBytes = view.targets.reduce((sum, t) => sum + Buffer.byteLength(t.text ?? ""), 0);
const sections = view.targets.filter((t) => /^§/.test(t.heading)).length;
console.error(
  `law: ${view.targets.length} targets (${sections} sections), ${(markdownBytes / 1e6).toFixed(2)} MB of markdown; page ${(html.length / 1e6).toFixed(2)} MB, rendered by view in ${renderMs.toFixed(0)} ms`,
);

/**
 * The law's targets `times` over, each copy's addresses made unique; past view's default --max-text-bytes, without the
 * texts, as view writes it.
 */
function scaled(times) {
  if (times === 1) return html;
  const bytes = markdownBytes * times;
  const omitted = bytes > DEFAULT_MAX_TEXT_BYTES;
  const targets = [];
  for (let copy = 0; copy < times; copy++)
    for (const t of view.targets)
      targets.push({ ...t, address: `${t.address}~copy-${copy}`, ...(omitted ? { text: undefined } : {}) });
  return renderDatasetPage({
    ...view,
    targets,
    ...(omitted ? { textsOmitted: { bytes, limit: DEFAULT_MAX_TEXT_BYTES } } : {}),
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/**
 * The amendment page of a long amendment: `changed` articles reworded and 29 repealed, with one kind-wide approval.
 * The time `diff --format html` takes to write it (one run of the built command), and the browser's timings to load
 * it, the median of --runs loads.
 */
async function amendmentRow(changed) {
  const dir = join(work, `amendment-${changed}`);
  const { lock, generate } = await import(pathToFileURL(join(root, "dist/index.js")).href);
  const paths = await writeLongAmendment({ dir, lock, generate, articles: changed + 30, changed, repealed: 29 });
  const file = join(dir, "amendment.html");
  const started = performance.now();
  try {
    execFileSync(
      process.execPath,
      [
        join(root, "bin/citation-targets.js"),
        "diff",
        paths.old,
        paths.new,
        "--approvals",
        paths.approvals,
        "--format",
        "html",
        "-o",
        file,
      ],
      { stdio: "ignore" },
    );
  } catch (error) {
    if (error.status !== 1) throw error; // 1: the repeals fail the gate, as they should
  }
  const writeMs = performance.now() - started;
  const pageBytes = readFileSync(file).length;
  const loads = [];
  const paints = [];
  const heights = [];
  for (let run = 0; run < runs; run++) {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await tab.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const timing = await tab.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      return {
        load: nav.loadEventEnd,
        paint: paint ? paint.startTime : Number.NaN,
        height: document.documentElement.scrollHeight,
      };
    });
    loads.push(timing.load);
    paints.push(timing.paint);
    heights.push(timing.height);
    await tab.close();
  }
  const row = {
    changes: changed + 1 + 29,
    pageMB: Number((pageBytes / 1e6).toFixed(2)),
    writeMs: Math.round(writeMs),
    loadMs: Math.round(median(loads)),
    firstPaintMs: Math.round(median(paints)),
    heightPx: median(heights),
  };
  console.error(
    `amendment: ${String(row.changes).padStart(5)} changes  page ${String(row.pageMB).padStart(6)} MB  diff --format html ${String(row.writeMs).padStart(5)} ms  load ${String(row.loadMs).padStart(5)} ms  first paint ${String(row.firstPaintMs).padStart(5)} ms  height ${row.heightPx} px`,
  );
  return row;
}

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const rows = [];
const amendments = [];
try {
  for (const times of pages.includes("view") ? scales : []) {
    const page = scaled(times);
    const file = join(work, `page-x${times}.html`);
    writeFileSync(file, page);
    const loads = [];
    const paints = [];
    const searches = [];
    const clears = [];
    const again = [];
    const lates = [];
    const opens = [];
    for (let run = 0; run < runs; run++) {
      const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await tab.goto(pathToFileURL(file).href, { waitUntil: "load" });
      const timing = await tab.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const paint = performance.getEntriesByName("first-contentful-paint")[0];
        return { load: nav.loadEventEnd, paint: paint ? paint.startTime : Number.NaN };
      });
      loads.push(timing.load);
      paints.push(timing.paint);
      // A search, timed until the frame that shows its result is painted; then clearing it.
      const measure = (value) =>
        tab.evaluate(
          (q) =>
            new Promise((resolve) => {
              const input = document.getElementById("q");
              const t0 = performance.now();
              input.value = q;
              input.dispatchEvent(new Event("input", { bubbles: true }));
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
            }),
          value,
        );
      searches.push(await measure("krankenkasse"));
      clears.push(await measure(""));
      // The first search reads the texts into the search's keys; later ones only match.
      again.push(await measure("versicherung"));
      await measure("");
      opens.push(
        await tab.evaluate(
          () =>
            new Promise((resolve) => {
              const buttons = document.querySelectorAll("button.tx");
              if (buttons.length === 0) return resolve(Number.NaN); // the texts were left out
              const t0 = performance.now();
              buttons[Math.floor(buttons.length / 2)].click();
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
            }),
        ),
      );
      await tab.close();
      // A reader who types a few seconds after the page opened: the keys were made while the page was idle.
      const later = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await later.goto(pathToFileURL(file).href, { waitUntil: "load" });
      await later.waitForTimeout(3000);
      lates.push(
        await later.evaluate(
          () =>
            new Promise((resolve) => {
              const input = document.getElementById("q");
              const t0 = performance.now();
              input.value = "krankenkasse";
              input.dispatchEvent(new Event("input", { bubbles: true }));
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
            }),
        ),
      );
      await later.close();
    }
    const row = {
      scale: times,
      targets: view.targets.length * times,
      markdownMB: Number(((markdownBytes * times) / 1e6).toFixed(2)),
      pageMB: Number((page.length / 1e6).toFixed(2)),
      texts: markdownBytes * times > DEFAULT_MAX_TEXT_BYTES ? "left out" : "in the page",
      loadMs: Math.round(median(loads)),
      firstPaintMs: Math.round(median(paints)),
      searchMs: Math.round(median(searches)),
      clearMs: Math.round(median(clears)),
      searchAgainMs: Math.round(median(again)),
      searchAfter3sMs: Math.round(median(lates)),
      openTextMs: Number.isNaN(median(opens)) ? null : Math.round(median(opens)),
    };
    rows.push(row);
    console.error(
      `x${String(times).padEnd(3)} ${String(row.targets).padStart(6)} targets  ${String(row.markdownMB).padStart(6)} MB md  page ${String(row.pageMB).padStart(6)} MB  load ${String(row.loadMs).padStart(5)} ms  first paint ${String(row.firstPaintMs).padStart(5)} ms  search ${String(row.searchMs).padStart(4)} ms  clear ${String(row.clearMs).padStart(4)} ms  again ${String(row.searchAgainMs).padStart(4)} ms  3 s after load ${String(row.searchAfter3sMs).padStart(4)} ms  open text ${String(row.openTextMs).padStart(3)} ms  (texts ${row.texts})`,
    );
  }
  for (const changed of pages.includes("amendment") ? changeCounts : []) amendments.push(await amendmentRow(changed));
} finally {
  await browser.close();
}
console.log(
  JSON.stringify({
    chromium: executablePath,
    runs,
    law: {
      targets: view.targets.length,
      sections,
      markdownBytes,
      pageBytes: html.length,
      viewMs: Math.round(renderMs),
    },
    rows,
    amendments,
  }),
);
