/**
 * Issue 32, item 8: what a hostile contributor puts in a JSONL value, a file name, an approval reason or a heading
 * never acts on the terminal, the job summary or a page: escape sequences are shown escaped (`\u001b`) in every text
 * report, Markdown in a value is escaped in the job summary, directional controls are isolated on every page, and a
 * record that leaves one unpaired breaks rule `directional-control`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DiffReport } from "../src/core/diff/diff.js";
import type { Report } from "../src/core/report/report.js";
import { escapeControls, isolateBidi, unpairedDirectionalControl } from "../src/core/text.js";
import { createColor } from "../src/formatters/color.js";
import { formatDiffGithub } from "../src/formatters/diff-github.js";
import { formatDiffStylish } from "../src/formatters/diff-stylish.js";
import { formatGithub } from "../src/formatters/github.js";
import { escapeHtml, jsonForScript } from "../src/formatters/html-common.js";
import { diffStepSummary, validateStepSummary } from "../src/formatters/step-summary.js";
import { formatStylish } from "../src/formatters/stylish.js";
import { runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { check, fixtureRecords, refresh, toJsonl } from "./helpers/records.js";
import { loadPage } from "./helpers/dom.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const ESC = "\u001b";
const RLO = "\u202e";
const color = createColor(0);
/** Any raw C0 control but LF and TAB, DEL, a C1 control, or a directional formatting character. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A report of one file with one problem (what the formatters are given). */
function oneProblem(name: string, problem: Record<string, unknown>): Report {
  return {
    files: [
      {
        path: name,
        records: 1,
        problems: [{ file: name, line: 1, severity: "error", ruleId: "json-syntax", ...problem } as never],
      },
    ],
    summary: { files: 1, records: 1, errors: 1, warnings: 0 },
    schemaSource: { kind: "bundled" } as never,
    threads: 1,
    rules: [],
  };
}

function diffReport(headingText: string, reason: string, file: string): DiffReport {
  return {
    pairs: [
      {
        type: "records",
        old: `old/${file}`,
        new: file,
        records: { before: 1, after: 1 },
        changes: [
          {
            kind: "record-removed",
            class: "breaking",
            address: `x/a.md#${ESC}[2J`,
            message: "removed",
            headingText,
            approved: { reason },
          } as never,
        ],
        warnings: [`a line that is no record: ${ESC}]0;title${"\u0007"}`],
      },
    ],
    summary: {
      pairs: 1,
      changes: 1,
      breaking: 1,
      additive: 0,
      approved: 1,
      failing: 0,
      byKind: { "record-removed": 1 },
      failOn: "breaking",
      passed: true,
    },
    warnings: [],
  };
}

describe("text reports show escape sequences escaped", () => {
  test("validate's stylish report: a file name, a value quoted in a message, an excerpt", async () => {
    const records = fixtureRecords("mvfg").map((r) => ({ ...r }));
    records[0]!.schemaVersion = `1.0.0${ESC}[2J${ESC}]0;pwned\u0007`;
    const name = `evil${ESC}[31m.jsonl`;
    await writeFile(join(dir, name), toJsonl(records));
    const run = await runMain(["validate", "--no-lock", "--no-config", name], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stdout).toContain("evil\\u001b[31m.jsonl");
    expect(run.stdout).toContain("\\u001b[2J\\u001b]0;pwned\\u0007");
    // The formatter itself, with colour on: only its own colour codes are raw.
    const report = oneProblem(name, {
      column: 4,
      message: `bad ${ESC}[8m`,
      pointer: `/a${ESC}`,
      excerpt: { text: `${ESC}${ESC}x`, column: 3 },
    });
    const plain = formatStylish(report, { color });
    expect(plain).not.toMatch(RAW);
    // The caret stays under the character it points at, as shown.
    const lines = plain.split("\n");
    const excerpt = lines.find((l) => l.includes("\\u001b\\u001bx"))!;
    const caret = lines[lines.indexOf(excerpt) + 1]!;
    expect(caret.indexOf("^")).toBe(excerpt.indexOf("x"));
    const coloured = formatStylish(report, { color: createColor(1) });
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(RAW);
  });

  test("the github annotations (validate's and diff's): a file name and a message, escaped; a line break stays %0A", async () => {
    const records = fixtureRecords("mvfg").map((r) => ({ ...r }));
    records[0]!.schemaVersion = `1.0.0${ESC}[2J${RLO}`;
    const name = `evil${ESC}[31m.jsonl`;
    await writeFile(join(dir, name), toJsonl(records));
    const run = await runMain(["validate", "--no-lock", "--no-config", "--format", "github", name], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stdout).toContain("file=evil\\u001b[31m.jsonl");
    expect(run.stdout).toContain("\\u001b[2J\\u202e");
    const annotations = formatGithub(oneProblem(name, { message: `two\nlines ${ESC}[8m\r`, pointer: "" }), {} as never);
    expect(annotations).not.toMatch(RAW);
    expect(annotations).toContain("::two%0Alines \\u001b[8m\\u000d");
    const diff = formatDiffGithub(diffReport(`6 ${RLO}evil`, `fine ${ESC}[2K`, `new${ESC}.jsonl`), {} as never);
    expect(diff).not.toMatch(RAW);
    expect(diff).toContain("approved: fine \\u001b[2K");
    expect(diff).toContain("file=new\\u001b.jsonl");
  });

  test("diff's stylish report: an address, a heading, an approval reason, a warning", () => {
    const text = formatDiffStylish(diffReport(`6 ${RLO}evil`, `fine ${ESC}[2K`, `new${ESC}.jsonl`), { color } as never);
    expect(text).not.toMatch(RAW);
    expect(text).toContain("approved: fine \\u001b[2K");
    expect(text).toContain("\\u202eevil");
    expect(text).toContain("x/a.md#\\u001b[2J");
  });

  test("stderr: a message naming a hostile file is escaped line by line", async () => {
    const run = await runMain(["generate", `missing${ESC}[2J.lock.json`], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(RAW);
    expect(run.stderr).toContain("missing\\u001b[2J.lock.json");
  });

  test("escapeControls keeps text, tabs and every other character", () => {
    expect(escapeControls("§ 1 Überschrift\tétat ‏")).toBe("§ 1 Überschrift\tétat \\u200f");
    expect(escapeControls(`${ESC}\r\n\u009b`)).toBe("\\u001b\\u000d\\u000a\\u009b");
  });
});

describe("the job summary shows a value's Markdown as text", () => {
  test("an image link in a heading, a link in a message: escaped, never rendered", () => {
    const image = "![x](https://evil.example/p.png) <img src=x> **bold**";
    const summary = diffStepSummary(diffReport(image, "ok [link](https://evil.example)", "a.jsonl"));
    expect(summary).not.toContain("![x](");
    expect(summary).not.toContain("](https://");
    expect(summary).not.toContain("<img");
    expect(summary).toContain(
      "\\!\\[x\\]\\(https\\:\\/\\/evil\\.example\\/p\\.png\\) &lt;img src\\=x\\> \\*\\*bold\\*\\*",
    );
    const report: Report = {
      files: [
        {
          path: "a.jsonl",
          records: 1,
          problems: [
            { file: "a.jsonl", line: 1, severity: "error", ruleId: "schema", message: image, pointer: "" } as never,
          ],
        },
      ],
      summary: { files: 1, records: 1, errors: 1, warnings: 0 },
      schemaSource: { kind: "bundled" } as never,
      threads: 1,
      rules: [],
    };
    const validated = validateStepSummary(report);
    expect(validated).not.toContain("![x](");
    expect(validated).toContain("\\!\\[x\\]");
  });
});

describe("pages isolate directional text", () => {
  test("an unterminated RLO in a heading stays inside its value on the view page: the buttons and trail are not reordered", async () => {
    const records = fixtureRecords("mvfg").map((r) => ({ ...r }));
    const target = records.find((r) => r.targetKind === "markdown-artifact" && typeof r.headingText === "string")!;
    target.headingText = `${RLO}evil ${String(target.headingText)}`;
    await writeFile(join(dir, "mvfg.jsonl"), toJsonl(records));
    const run = await runMain(["view", "mvfg.jsonl"], dir);
    expect(run.code, run.stderr).toBe(0);
    const dom = loadPage(run.stdout);
    const headings = [...dom.window.document.querySelectorAll(".heading")].map((e) => e.textContent ?? "");
    const evil = headings.filter((h) => h.includes(RLO));
    expect(evil.length).toBeGreaterThan(0);
    for (const heading of evil) {
      expect(heading.startsWith("\u2068")).toBe(true);
      expect(heading.endsWith("\u2069")).toBe(true);
    }
    // Every RLO of the page's text and data is inside an isolate that closes before anything else is shown.
    for (const text of [run.stdout]) {
      for (let at = text.indexOf(RLO); at !== -1; at = text.indexOf(RLO, at + 1)) {
        const open = text.lastIndexOf("\u2068", at);
        const close = text.indexOf("\u2069", at);
        expect(open, "an isolate opens before the RLO").toBeGreaterThanOrEqual(0);
        expect(close, "and closes after it").toBeGreaterThan(at);
        expect(text.slice(open, close)).not.toMatch(/[<>]/); // within one value, before any markup
      }
    }
  });

  test("isolateBidi: a value with no directional control is unchanged; a stray PDI cannot close the isolate early", () => {
    expect(isolateBidi("§ 1 Allgemeines")).toBe("§ 1 Allgemeines");
    expect(escapeHtml("a < b")).toBe("a &lt; b");
    expect(isolateBidi(`x\u2069${RLO}y`)).toBe(`\u2068x${RLO}y\u2069`);
    expect(unpairedDirectionalControl(isolateBidi(`x\u2069${RLO}y`).slice(1, -1))?.code).toBe("U+202E");
    expect(jsonForScript({ h: `${RLO}x` })).toBe(`{"h":"\u2068${RLO}x\u2069"}`);
  });
});

describe("rule directional-control", () => {
  const FILE = ".tooling/citation-targets/mvfg.jsonl";
  const withHeading = (mutate: (markdown: string) => string) => {
    const records = fixtureRecords("mvfg").map((r) => ({ ...r }));
    const target = records.find((r) => r.targetKind === "markdown-artifact")!;
    target.markdown = mutate(String(target.markdown));
    refresh(target);
    return check(toJsonl(records), { file: FILE }).problems.filter((p) => p.ruleId === "directional-control");
  };

  test("paired controls, marks and right-to-left text pass", () => {
    expect(withHeading((m) => `${m}\u202bעברית\u202c \u2067ערבית\u2069 \u200f`)).toEqual([]);
  });

  test("an opener never closed on its line, and a closer with nothing to close, are errors naming the field", () => {
    const open = withHeading((m) => m.replace("\n", `${RLO}\n`));
    expect(open).toHaveLength(1);
    expect(open[0]!.pointer).toBe("/markdown");
    expect(open[0]!.severity).toBe("error");
    expect(open[0]!.message).toMatch(/^markdown has U\+202E at offset \d+ that is never closed on its line/);
    const stray = withHeading((m) => `${m}\u2069`);
    expect(stray[0]!.message).toMatch(/^markdown has U\+2069 at offset \d+ that closes nothing/);
    // A line break ends an embedding: closing it on the next line is too late.
    expect(withHeading((m) => `${m}${RLO}a\nb\u202c`)).toHaveLength(1);
  });
});
