/**
 * The bundled command line's code is ASCII (scripts/bundle-cli.js: characters beyond it escaped, comments but legal and
 * annotation ones left out; the precompiled validators escaped by scripts/build-validator.js), so that Node decodes each
 * file on its fast path at start-up (bench/RESULTS.md, "Start-up"). The view page still carries the citation reader's
 * source text with its own characters (src/core/resolve/citation-reader-source.ts): the bundle puts it in as a string.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createCitationReader, READER_TABLES } from "../src/core/resolve/citation-reader.js";
import { runBin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

const dist = join(repoRoot, "dist");
const jsonl = ".tooling/citation-targets/mvfg.jsonl";

/** The reader's text in a view page: the function between `const reader = (` and its call on the page's tables. */
function readerOf(page: string): string {
  const start = page.indexOf("const reader = (");
  const end = page.indexOf(")(tables);", start);
  expect(start, "the page's script names the reader").toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return page.slice(start + "const reader = (".length, end);
}

const CITATIONS = [
  "§ 823 I 2 BGB",
  "§§ 305 bis 310 BGB",
  "Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO",
  "s 6(1)(a)",
  "Artículo 3",
  "Anlage 1 § 1 MVfG",
];

describe("the bundle's code is ASCII", () => {
  test("every chunk of the command line and of the worker, and the precompiled validators", async () => {
    const files = [
      ...(await readdir(join(dist, "node")))
        .filter((name) => /^(?:cli|worker)(?:-.*)?\.c?js$/.test(name))
        .map((name) => join(dist, "node", name)),
      join(dist, "node/pool/worker.js"),
      ...(await readdir(join(dist, "generated"))).map((name) => join(dist, "generated", name)),
    ];
    expect(files.some((file) => file.includes("cli-shared-"))).toBe(true);
    const beyond = [];
    for (const file of files) if (!(await readFile(file)).every((byte) => byte < 0x80)) beyond.push(file);
    expect(beyond).toEqual([]);
  });
});

describe("the view page carries the citation reader's text with its own characters", () => {
  test("the built command line: the text as a UTF-8 build has it, which reads citations as the reader does", async () => {
    const out = join(dir, "bundled.html");
    const run = await runBin(["view", jsonl, "-o", out], repoRoot);
    expect(run.code, run.stderr).toBe(0);
    const text = readerOf(await readFile(out, "utf8"));
    expect(text.startsWith("function createCitationReader(tables) {")).toBe(true);
    expect(text).toContain("§§|§|Artt?\\.");
    expect(text).toContain("artículo");
    expect(text).not.toMatch(/\\u00a7|\\xa7|\\u00ed/); // `§` and `í` themselves, not escapes
    const made = new Function(`return (${text})`)() as typeof createCitationReader;
    const copy = made(JSON.parse(JSON.stringify(READER_TABLES)));
    const reader = createCitationReader(READER_TABLES);
    for (const citation of CITATIONS) expect(copy.read(citation), citation).toEqual(reader.read(citation));
  });

  test("tsc's output run unbundled: the function's own text, as that build has it", async () => {
    const out = join(dir, "unbundled.html");
    const run = await runCommand(
      process.execPath,
      [join(repoRoot, "test/helpers/unbundled-main.mjs"), "view", jsonl, "-o", out],
      repoRoot,
    );
    expect(run.code, run.stderr).toBe(0);
    // The function's text as Node loads tsc's output (in a child: this process loads modules through Vite).
    const own = await runCommand(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { createCitationReader } from ${JSON.stringify(pathToFileURL(join(dist, "core/resolve/citation-reader.js")).href)};
process.stdout.write(createCitationReader.toString());`,
      ],
      repoRoot,
    );
    expect(own.code, own.stderr).toBe(0);
    expect(readerOf(await readFile(out, "utf8"))).toBe(own.stdout);
  });
});
