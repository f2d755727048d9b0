/**
 * What generate writes, made as validate reads the file (src/core/records/generated-window.ts): the window answers
 * as the map of every generated record would, or gives up and the file is checked again with the map. The window on
 * its own, then validate's reports with it (a dataset past WINDOW_FROM_BYTES) against those with the map (`--lock`
 * names the manifest: one map for every file checked), file by file, for every way a file can stray from what
 * generate writes.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { DatasetError } from "../src/core/errors.js";
import { GeneratedWindow } from "../src/core/records/generated-window.js";
import { createFileValidator, WINDOW_FROM_BYTES } from "../src/node/validate/file-validator.js";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";

/** A window over records at `addresses`, in that order, then a throw of `error` if given. */
function windowOver(addresses: string[], error?: unknown): { window: GeneratedWindow; whole: () => Promise<void> } {
  async function* records() {
    for (const address of addresses) yield { citationAddress: address, text: `of ${address}` };
    if (error !== undefined) throw error;
  }
  const whole = vi.fn(async () => undefined);
  return { window: new GeneratedWindow(records(), whole), whole };
}

const ADDRESSES = Array.from({ length: 10 }, (_, i) => `a/${i}`);

describe("the window on its own", () => {
  test("a file in generate's order takes each record in turn; the twin is at hand before and just after", async () => {
    const { window } = windowOver(ADDRESSES);
    await window.fill(3);
    expect(window.covers(3)).toBe(true);
    expect(window.covers(4)).toBe(false);
    expect(window.twin("a/1")).toEqual({ citationAddress: "a/1", text: "of a/1" });
    expect(window.take("a/0")).toEqual({ record: { citationAddress: "a/0", text: "of a/0" }, order: 0 });
    // lock-generated took it; a rule after it still finds the twin of the record being checked
    expect(window.twin("a/0")?.text).toBe("of a/0");
    expect(window.take("a/1")?.order).toBe(1);
    expect(window.twin("a/0")).toBeUndefined();
    await window.fill(100);
    expect(window.complete).toBe(true);
    for (let i = 2; i < 10; i++) expect(window.take(`a/${i}`)?.order).toBe(i);
    await window.finish();
    expect([...window.untaken()]).toEqual([]);
    expect(window.abandoned).toBe(false);
  });

  test("an address generate never writes, every record made: undefined, and the window holds", async () => {
    const { window } = windowOver(ADDRESSES);
    await window.fill(100);
    expect(window.take("a/none")).toBeUndefined();
    expect(window.abandoned).toBe(false);
  });

  test("it gives up where the map would answer and it cannot: not made yet, let go, or met before", async () => {
    const notYet = windowOver(ADDRESSES).window;
    await notYet.fill(2);
    expect(notYet.take("a/7")).toBeUndefined();
    expect(notYet.abandoned).toBe(true);

    const letGo = windowOver(ADDRESSES).window;
    await letGo.fill(100);
    letGo.letGoBefore(4);
    expect(letGo.twin("a/3")).toBeUndefined();
    expect(letGo.take("a/5")?.order).toBe(5);
    expect(letGo.abandoned).toBe(false);
    expect(letGo.take("a/2")).toBeUndefined();
    expect(letGo.abandoned).toBe(true);

    const twice = windowOver(ADDRESSES).window;
    await twice.fill(100);
    expect(twice.take("a/4")?.order).toBe(4);
    expect(twice.take("a/4")).toBeUndefined();
    expect(twice.abandoned).toBe(true);
  });

  test("the records never taken come back in generate's order with their places, those let go included", async () => {
    const { window } = windowOver(ADDRESSES);
    await window.fill(6);
    window.take("a/0");
    window.take("a/2");
    window.letGoBefore(4); // a/1 and a/3 let go
    window.take("a/5");
    await window.finish(); // a/6 … a/9 made and let go at once
    expect([...window.untaken()]).toEqual([
      ["a/1", 1],
      ["a/3", 3],
      ["a/4", 4],
      ["a/6", 6],
      ["a/7", 7],
      ["a/8", 8],
      ["a/9", 9],
    ]);
  });

  test("generate refusing the dataset part way, or any other failure, makes it give up (the check made again says it)", async () => {
    const refused = windowOver(ADDRESSES.slice(0, 3), new DatasetError(["x.md: refused"])).window;
    await refused.fill(2);
    expect(refused.abandoned).toBe(false);
    await refused.fill(100);
    expect(refused.abandoned).toBe(true);
    const broken = windowOver(ADDRESSES.slice(0, 3), new RangeError("a bug")).window;
    await broken.fill(100);
    expect(broken.abandoned).toBe(true);
  });

  test("generate writing one address twice makes it give up (the map would keep the last)", async () => {
    const { window } = windowOver(["a/0", "a/1", "a/0"]);
    await window.fill(100);
    expect(window.abandoned).toBe(true);
  });
});

describe("validate with the window reports what it reports with the map", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const MANIFEST = ".tooling/citation-targets/big.lock.json";
  const JSONL = ".tooling/citation-targets/big.jsonl";
  let generated: string[];

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    // 50 laws of 80 headings each: 1.2 MiB of markdown (past WINDOW_FROM_BYTES), 4,000 records, 5 MiB of JSONL.
    for (let law = 0; law < 50; law++) {
      const sections = [`# Gesetz ${law}\n\nEingangsformel.\n`];
      for (let n = 1; n < 80; n++)
        sections.push(`## § ${n} Abschnitt ${n}\n\n${"Der Text des Paragraphen. ".repeat(8 + ((law * n) % 7))}\n`);
      const folder = join(dir, "laws", `g${String(law).padStart(2, "0")}`);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, "index.md"), sections.join("\n"));
    }
    const flags = ["--slug", "big", "--title-id", "BIG", "--name", "Big", "--version-date", "2024-12-31"];
    const url = ["--source-text-url", "https://www.legislation.gov.au/BIG/2024-12-31/text", "-o", MANIFEST];
    await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
    expect((await runMain(["lock", "laws", ...flags, ...url], dir)).code).toBe(0);
    expect((await runMain(["generate", MANIFEST, "-o", JSONL], dir)).code).toBe(0);
    generated = (await readFile(join(dir, JSONL), "utf8")).split("\n").slice(0, -1);
  });
  afterAll(async () => cleanup());

  /** The records as JSON lines, one edited. */
  const edited = (lines: string[], at: number, edit: (record: Record<string, unknown>) => void) => {
    const record = JSON.parse(lines[at]!) as Record<string, unknown>;
    edit(record);
    return [...lines.slice(0, at), JSON.stringify(record), ...lines.slice(at + 1)];
  };

  /** A file's text: its lines, each ended by an LF, or the text as it is. */
  const textOf = (file: string[] | string) =>
    typeof file === "string" ? file : file.map((line) => `${line}\n`).join("");

  /** Ways a file strays from what generate writes, each as its lines (or its text). */
  const strays = (): [string, () => string[] | string][] => {
    const g = generated;
    return [
      ["as generated", () => g],
      ["a field edited", () => edited(g, 3000, (r) => (r.headingText = "edited"))],
      ["one record dropped early", () => [...g.slice(0, 10), ...g.slice(11)]],
      ["300 records dropped early", () => [...g.slice(0, 10), ...g.slice(310)]],
      ["a late record duplicated early", () => [...g.slice(0, 5), g[3900]!, ...g.slice(5)]],
      ["an early record duplicated late", () => [...g.slice(0, 3900), g[5]!, ...g.slice(3900)]],
      ["two records far apart swapped", () => [g[3900]!, ...g.slice(1, 3900), g[0]!, ...g.slice(3901)]],
      ["two neighbours swapped", () => [...g.slice(0, 10), g[11]!, g[10]!, ...g.slice(12)]],
      [
        "a record at an address generate never writes",
        () => [...edited(g, 6, (r) => (r.citationAddress = "big/none.md#x"))],
      ],
      ["truncated", () => g.slice(0, 700)],
      ["a line that is not JSON", () => [...g.slice(0, 500), "not json", ...g.slice(500)]],
      ["1,500 records added", () => [...g.slice(0, 600), ...Array(1500).fill(g[600]), ...g.slice(600)]],
      ["reversed", () => [...g].reverse()],
      ["the last record dropped", () => g.slice(0, -1)],
      // The last line, no LF after it, is read as the check ends, after the last records are made.
      ["no LF after the last record", () => textOf(g).slice(0, -1)],
      [
        "the last record edited, no LF after it",
        () => textOf(edited(g, g.length - 1, (r) => (r.documentOrder = 9999))).slice(0, -1),
      ],
      [
        "a copy of the last record edited and appended, no LF after it",
        () => `${textOf(g)}${textOf(edited([g.at(-1)!], 0, (r) => (r.documentOrder = 1)))}`.slice(0, -1),
      ],
      ["truncated, no LF after its last record (read in one piece)", () => textOf(g.slice(0, 300)).slice(0, -1)],
    ];
  };

  test("the dataset is past the size from which the window is used, its file more than one piece", async () => {
    const bytes = (await readFile(join(dir, JSONL))).length;
    let markdownBytes = 0;
    for (let law = 0; law < 50; law++)
      markdownBytes += (await readFile(join(dir, "laws", `g${String(law).padStart(2, "0")}`, "index.md"))).length;
    expect(markdownBytes).toBeGreaterThan(WINDOW_FROM_BYTES);
    expect(generated.length).toBeGreaterThan(4_000);
    // Read in pieces of 1 MiB: more than one, and more records than are made before the first is read.
    expect(bytes).toBeGreaterThan(3 << 20);
  });

  test("in this thread: the same report as with the map, for each way a file strays; the window used, given up where it must", async () => {
    const withWindow = await createFileValidator({ cwd: dir, cache: false });
    const withMap = await createFileValidator({ cwd: dir, cache: false, lock: MANIFEST });
    const file = { absolute: join(dir, JSONL), display: JSONL };
    const takes = vi.spyOn(GeneratedWindow.prototype, "take");
    const gaveUp: string[] = [];
    for (const [name, lines] of strays()) {
      await writeFile(join(dir, JSONL), textOf(lines()));
      takes.mockClear();
      const windowed = await withWindow.check(file);
      expect(takes.mock.calls.length, name).toBeGreaterThan(0);
      const windows = takes.mock.instances as unknown as GeneratedWindow[];
      if (windows.some((window) => window.abandoned)) gaveUp.push(name);
      const mapped = await withMap.check(file);
      expect(windowed.report.problems, name).toEqual(mapped.report.problems);
      expect(windowed.report.records, name).toBe(mapped.report.records);
    }
    takes.mockRestore();
    // In generate's order, with a few records dropped, swapped nearby, added or truncated, the window answers; where a
    // twin is met twice or far from its place, it gives up.
    expect(gaveUp).toEqual([
      "a late record duplicated early",
      "an early record duplicated late",
      "two records far apart swapped",
      "1,500 records added",
      "reversed",
      "a copy of the last record edited and appended, no LF after it",
    ]);
  });

  test("an artifact edited while validate reads the file (its bytes not kept, read again as its records are made): the file's error, never a pass", async () => {
    await writeFile(join(dir, JSONL), generated.map((line) => `${line}\n`).join(""));
    const validator = await createFileValidator({ cwd: dir, cache: false });
    const law = join(dir, "laws/g30/index.md");
    const before = await readFile(law, "utf8");
    // The first records are made before the first piece of the file is read: the artifacts were read and matched
    // their pins just before.
    const fill = vi.spyOn(GeneratedWindow.prototype, "fill").mockImplementationOnce(async function (
      this: GeneratedWindow,
      count,
    ) {
      await writeFile(law, `${before}\nEin Absatz, eingefügt während validate liest.\n`);
      return GeneratedWindow.prototype.fill.call(this, count); // the spy again: this time the real fill
    });
    try {
      const { report } = await validator.check({ absolute: join(dir, JSONL), display: JSONL });
      expect(report.error).toContain("g30/index.md changed while validate read it");
      expect(report.error).toContain("run validate again");
      const own = report.problems.filter((p) => p.ruleId === "lock-generated");
      expect(own.map((p) => p.message)).toEqual([
        expect.stringContaining(
          "generate refuses the dataset of .tooling/citation-targets/big.lock.json: g30/index.md: changed while validate read it",
        ),
      ]);
    } finally {
      fill.mockRestore();
      await writeFile(law, before);
    }
  });

  test("the built CLI (the dataset checked in a capped worker): the same report with the window as with the map", async () => {
    const some = new Set([
      "a field edited",
      "300 records dropped early",
      "an early record duplicated late",
      "truncated",
      "the last record edited, no LF after it",
    ]);
    for (const [name, lines] of strays().filter(([name]) => some.has(name))) {
      await writeFile(join(dir, JSONL), textOf(lines()));
      const windowed = await runBin(["validate", "--no-cache", "--format", "json", JSONL], dir);
      const mapped = await runBin(["validate", "--no-cache", "--format", "json", "--lock", MANIFEST, JSONL], dir);
      expect(windowed.code, name).toBe(mapped.code);
      expect(JSON.parse(windowed.stdout).files, name).toEqual(JSON.parse(mapped.stdout).files);
    }
  });

  test("generate refusing the dataset after records were compared: the refusal alone is said, as with the map", async () => {
    await writeFile(join(dir, JSONL), generated.map((line) => `${line}\n`).join(""));
    // The last law gets a heading past generate's cap on heading length; the file keeps its records, re-pointed to the
    // manifest's new datasetDigest so that they are compared, and one of them edited early.
    const last = join(dir, "laws/g39/index.md");
    const before = await readFile(last, "utf8");
    try {
      await writeFile(last, `${before}\n## ${"x".repeat(70_000)}\n\nText.\n`);
      const oldDigest = (JSON.parse(generated[0]!) as { datasetDigest: string }).datasetDigest;
      expect((await runMain(["lock", "laws", "-o", MANIFEST], dir)).code).toBe(0);
      const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8")) as { datasetDigest: string };
      const lines = edited(
        generated.map((line) => line.replaceAll(oldDigest, manifest.datasetDigest)),
        20,
        (r) => (r.headingText = "edited"),
      );
      await writeFile(join(dir, JSONL), lines.map((line) => `${line}\n`).join(""));
      const windowed = await runBin(["validate", "--no-cache", "--format", "json", JSONL], dir);
      const mapped = await runBin(["validate", "--no-cache", "--format", "json", "--lock", MANIFEST, JSONL], dir);
      const problems = JSON.parse(windowed.stdout).files[0].problems as { ruleId: string; message: string }[];
      const own = problems.filter((p) => p.ruleId === "lock-generated");
      expect(own).toHaveLength(1);
      expect(own[0]!.message).toContain("generate refuses the dataset");
      expect(JSON.parse(windowed.stdout).files).toEqual(JSON.parse(mapped.stdout).files);
    } finally {
      await writeFile(last, before);
      expect((await runMain(["lock", "laws", "-o", MANIFEST], dir)).code).toBe(0);
    }
  });
});
