/**
 * The review gate by law and version (README, "Reviewing an amendment"): the README section run as
 * written, then each part of it on the repository it leaves: approvals by dataset, version and
 * address prefix; editorial changes; dataset lines; `diff REV1 REV2`; the CI formats of the checks.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { diff as libraryDiff } from "../src/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approvalsToAdd } from "../src/core/diff/approvals-file.js";
import {
  applyApprovals,
  approvalWarnings,
  approves,
  hasAddressPrefix,
  parseApprovals,
  type DiffPair,
  type DiffReport,
  summarizeDiff,
} from "../src/core/diff/diff.js";
import { classifyTextChange, withoutFootnotes } from "../src/core/diff/text-change.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { type RanBlock, runReadmeSection } from "./helpers/readme.js";

let dir: string;
let cleanup: () => Promise<void>;
/** The gazette repository the README section leaves: HEAD is the amendment, HEAD~1 the four laws adopted. */
let repo: string;
/** Each sh block's output, and the text block that follows it (when one does). */
let ran: RanBlock[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  repo = join(dir, "gazette");
  ran = await runReadmeSection("Reviewing an amendment", dir, "gazette");
}, 120_000);

afterAll(async () => {
  await cleanup();
});

/** Runs diff in this process in the gazette repository; the JSON report when asked for. */
async function diffJson(args: string[]): Promise<{ code: number; report: DiffReport; stderr: string }> {
  const run = await runMain(["diff", "--format", "json", ...args], repo);
  return { code: run.code, report: JSON.parse(run.stdout) as DiffReport, stderr: run.stderr };
}

const changesOf = (report: DiffReport) => report.pairs.flatMap((pair) => pair.changes);

describe("README: 'Reviewing an amendment', run as written", () => {
  test("every sh block runs in turn (citation-targets on PATH) and prints the text block that follows it", () => {
    expect(ran.length).toBe(5);
    for (const { output, expected } of ran)
      if (expected !== undefined) expect(output.trimEnd()).toBe(expected.trimEnd());
  });

  test("it ends with one approval entry per amended law version and one for the repealed law, and the gate passing", async () => {
    const approvals = JSON.parse(await readFile(join(repo, ".tooling/citation-targets/approvals.json"), "utf8"));
    expect(approvals.approvals.map((a: Record<string, string>) => [a.dataset, a.versionDate, a.kind])).toEqual([
      ["bgb", "2025-07-01", "record-changed"],
      ["rabattg", "2024-01-01", "record-removed"],
      ["stgb", "2025-07-01", "record-changed"],
      ["zpo", "2025-07-01", "record-changed"],
    ]);
    const { code, report } = await diffJson([
      "HEAD~1",
      "HEAD",
      "--approvals",
      ".tooling/citation-targets/approvals.json",
    ]);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ changes: 6, approved: 6, failing: 0, passed: true });
    expect(report.warnings).toEqual([]);
  });
});

describe("1. approvals by law and version", () => {
  const write = (entries: object[]) =>
    writeFile(join(dir, "approvals.json"), JSON.stringify({ approvals: entries }, null, 2));
  const approvalsFile = () => join(dir, "approvals.json");

  test("an entry for another version of the law approves nothing and says it is stale", async () => {
    await write([{ dataset: "bgb", versionDate: "2024-01-01", kind: "record-changed", reason: "reviewed before" }]);
    const { code, report } = await diffJson(["HEAD~1", "HEAD", "--approvals", approvalsFile()]);
    expect(code).toBe(1);
    expect(changesOf(report).find((c) => c.address === "bgb/index.md#§-1")?.approved).toBeUndefined();
    expect(report.warnings).toEqual([
      'approval {"kind":"record-changed","dataset":"bgb","versionDate":"2024-01-01"} is for bgb 2024-01-01, not 2025-07-01: stale (it approves nothing; review the new version\'s changes)',
    ]);
  });

  test("dataset without versionDate approves the dataset's changes of that kind, and says it does in every version; addressPrefix whole segments only", async () => {
    await write([
      { dataset: "rabattg", kind: "record-removed", reason: "repealed" },
      { addressPrefix: "zpo/index.md#§-1", reason: "footnotes renumbered" },
      { addressPrefix: "stgb/", kind: "record-changed", reason: "amended" },
    ]);
    const { report } = await diffJson(["HEAD~1", "HEAD", "--approvals", approvalsFile()]);
    const approved = Object.fromEntries(changesOf(report).map((c) => [c.address, c.approved?.reason]));
    expect(approved).toEqual({
      "bgb/index.md#§-1": undefined,
      "rabattg/index.md#rabattgesetz": "repealed",
      "rabattg/index.md#§-1": "repealed",
      "stgb/index.md#§-1": "amended",
      "zpo/index.md#§-1": "footnotes renumbered",
      "zpo/index.md#§-2": undefined,
    });
    expect(report.warnings).toEqual([
      'approval {"kind":"record-removed","dataset":"rabattg"} names no versionDate, so it approves such a change in every version of the law (here rabattg 2024-01-01), not only the one it was reviewed for: name its "dataset" and that "versionDate" by hand (--write-approvals writes new entries so, and leaves this one as it is)',
      'approval {"addressPrefix":"zpo/index.md#§-1"} names no versionDate, so it approves such a change in every version of the law (here zpo 2025-07-01), not only the one it was reviewed for: name its "dataset" and that "versionDate" by hand (--write-approvals writes new entries so, and leaves this one as it is)',
      'approval {"kind":"record-changed","addressPrefix":"stgb/"} names no versionDate, so it approves such a change in every version of the law (here stgb 2025-07-01), not only the one it was reviewed for: name its "dataset" and that "versionDate" by hand (--write-approvals writes new entries so, and leaves this one as it is)',
    ]);
    expect(hasAddressPrefix("mvfg/mvfg.md#art-3/§-82", "mvfg/mvfg.md#art-3/§-82")).toBe(true);
    expect(hasAddressPrefix("mvfg/mvfg.md#art-3/§-82/abs-1", "mvfg/mvfg.md#art-3/§-82")).toBe(true);
    expect(hasAddressPrefix("mvfg/mvfg.md#art-3/§-823", "mvfg/mvfg.md#art-3/§-82")).toBe(false);
    expect(hasAddressPrefix("gg/index.md#art-1", "gg")).toBe(true);
    expect(hasAddressPrefix("ggb/index.md#art-1", "gg")).toBe(false);
    expect(hasAddressPrefix("gg/index.md#art-1", "gg/index.md#")).toBe(true);
  });

  test("a kind-only entry still approves, and warns that it approves every change of that kind; address stays exact", async () => {
    await write([
      { kind: "record-changed", reason: "all of them" },
      { address: "rabattg/", reason: "not a prefix" },
    ]);
    const { report } = await diffJson(["HEAD~1", "HEAD", "--approvals", approvalsFile()]);
    expect(changesOf(report).filter((c) => c.approved?.reason === "all of them")).toHaveLength(4);
    expect(report.warnings).toEqual([
      'approval {"kind":"record-changed"} approves every record-changed change of every dataset, for as long as it is there: name a "dataset" and its "versionDate" to approve one law\'s version',
      'approval {"address":"rabattg/"} matches no change (is it still needed?)',
    ]);
  });

  test("an entry naming a dataset the diff does not compare says so (a slug mistyped?)", async () => {
    await write([{ dataset: "bgx", kind: "record-changed", reason: "typo" }]);
    const { report } = await diffJson(["HEAD~1", "HEAD", "--approvals", approvalsFile()]);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toBe(
      'approval {"kind":"record-changed","dataset":"bgx"} names dataset bgx, which this diff does not compare (it compares bgb, rabattg, stgb, zpo): a slug mistyped? It matches no change',
    );
  });

  test("the new members are checked", () => {
    expect(
      parseApprovals({
        approvals: [
          { versionDate: "2025-07-01", kind: "record-changed", reason: "r" },
          { dataset: "bgb", versionDate: "1.7.2025", reason: "r" },
          { address: "a/b.md#c", addressPrefix: "a/", reason: "r" },
          { dataset: "", reason: "r" },
        ],
      }).problems,
    ).toEqual([
      'approvals[0]: "versionDate" needs "dataset": the slug of the dataset of that version',
      'approvals[1]: "versionDate" must be a date YYYY-MM-DD (the new version\'s)',
      'approvals[2]: "address" and "addressPrefix" exclude each other',
      'approvals[3]: "dataset" must be a non-empty string',
    ]);
  });

  test("--write-approvals: a record removed from a dataset that remains gets an entry of its own, in the law's version", () => {
    const pair = (slug: string, changes: DiffReport["pairs"][number]["changes"], newMissing = false) => ({
      type: "records" as const,
      old: `old/${slug}.jsonl`,
      new: `new/${slug}.jsonl`,
      ...(newMissing ? { newMissing: true } : {}),
      dataset: { slug, versionDate: { before: "2024-01-01", ...(newMissing ? {} : { after: "2025-07-01" }) } },
      changes,
      warnings: [],
    });
    const change = (kind: "record-changed" | "record-removed", address: string) => ({
      kind,
      class: "breaking" as const,
      address,
      message: address,
    });
    const pairs = [
      pair("bgb", [
        change("record-changed", "bgb/index.md#§-1"),
        change("record-changed", "bgb/index.md#§-2"),
        change("record-removed", "bgb/index.md#§-3"),
      ]),
      pair("rabattg", [change("record-removed", "rabattg/index.md#§-1")], true),
    ];
    const report: DiffReport = { pairs, summary: summarizeDiff(pairs, "breaking"), warnings: [] };
    expect(approvalsToAdd(report, [])).toEqual([
      {
        approval: { dataset: "bgb", versionDate: "2025-07-01", kind: "record-changed", reason: expect.any(String) },
        changes: 2,
        addresses: ["bgb/index.md#§-1", "bgb/index.md#§-2"],
      },
      {
        approval: {
          dataset: "bgb",
          versionDate: "2025-07-01",
          address: "bgb/index.md#§-3",
          kind: "record-removed",
          reason: expect.any(String),
        },
        changes: 1,
        addresses: ["bgb/index.md#§-3"],
      },
      {
        approval: { dataset: "rabattg", versionDate: "2024-01-01", kind: "record-removed", reason: expect.any(String) },
        changes: 1,
        addresses: ["rabattg/index.md#§-1"],
      },
    ]);
  });
});

describe("1a. a text change without a new versionDate", () => {
  test("a version's entry does not approve it: it fails, a warning says why, and --write-approvals names it by address", () => {
    const change = (address: string) => ({
      kind: "record-changed" as const,
      class: "breaking" as const,
      address,
      message: address,
    });
    // The law's new version was approved when it came (2024-01-01 → 2025-07-01); a later change keeps 2025-07-01.
    const pairs = [
      {
        type: "records" as const,
        old: "old/bgb.jsonl",
        new: "new/bgb.jsonl",
        dataset: { slug: "bgb", versionDate: { before: "2025-07-01", after: "2025-07-01" } },
        changes: [change("bgb/index.md#§-1")],
        warnings: [],
      },
    ];
    const entry = { dataset: "bgb", versionDate: "2025-07-01", kind: "record-changed" as const, reason: "Art. 5 G" };
    expect(approves(entry, pairs[0]!.changes[0]!, pairs[0])).toBe(false);
    const unmatched = applyApprovals(pairs, [entry]);
    expect(pairs[0]!.changes[0]!).not.toHaveProperty("approved");
    expect(approvalWarnings([entry], unmatched, pairs)).toEqual([
      'approval {"dataset":"bgb","versionDate":"2025-07-01","kind":"record-changed"} is for bgb 2025-07-01, which both sides have: the law\'s text changed without a new versionDate, so the entry approves nothing; give the new version its date (update --version-date) and review its changes',
    ]);
    const report: DiffReport = { pairs, summary: summarizeDiff(pairs, "breaking"), warnings: [] };
    expect(report.summary.passed).toBe(false);
    const written = approvalsToAdd(report, [entry]).map((a) => a.approval);
    expect(written).toEqual([
      {
        dataset: "bgb",
        versionDate: "2025-07-01",
        address: "bgb/index.md#§-1",
        kind: "record-changed",
        reason: expect.any(String),
      },
    ]);
    // Reviewed, it approves that change while the law has that version; a later version's change there, no more.
    const byAddress = { ...written[0]!, reason: "a typo fixed" };
    expect(approves(byAddress, pairs[0]!.changes[0]!, pairs[0])).toBe(true);
    const later = {
      ...pairs[0]!,
      dataset: { slug: "bgb", versionDate: { before: "2025-07-01", after: "2026-01-01" } },
    };
    expect(approves(byAddress, pairs[0]!.changes[0]!, later)).toBe(false);
    expect(approvalWarnings([byAddress], [byAddress], [later])).toEqual([
      'approval {"dataset":"bgb","versionDate":"2025-07-01","address":"bgb/index.md#§-1","kind":"record-changed"} is for bgb 2025-07-01, not 2026-01-01: stale (it approves nothing; review the new version\'s changes)',
    ]);
    // A law dated back to the entry's version: neither entry approves, and the warning says why.
    const back = { ...pairs[0]!, dataset: { slug: "bgb", versionDate: { before: "2026-01-01", after: "2025-07-01" } } };
    expect(approves(byAddress, pairs[0]!.changes[0]!, back)).toBe(false);
    expect(approves(entry, pairs[0]!.changes[0]!, back)).toBe(false);
    expect(approvalWarnings([entry], [entry], [back])[0]).toContain(
      "is for bgb 2025-07-01, to which the law is dated back (from 2026-01-01): no entry with a versionDate approves a version dated back",
    );
    // An addressPrefix may name a whole dataset: with a versionDate, it approves only changes that bring the version.
    const prefix = { dataset: "bgb", versionDate: "2025-07-01", addressPrefix: "bgb/", reason: "Art. 5 G" };
    expect(approves(prefix, pairs[0]!.changes[0]!, pairs[0])).toBe(false);
    // --write-approvals for a law dated back: by address, without a versionDate, and never twice.
    const backReport: DiffReport = { pairs: [back], summary: summarizeDiff([back], "breaking"), warnings: [] };
    const forBack = approvalsToAdd(backReport, []).map((a) => a.approval);
    expect(forBack).toEqual([{ address: "bgb/index.md#§-1", kind: "record-changed", reason: expect.any(String) }]);
    expect(approvalsToAdd(backReport, [{ ...forBack[0]!, reason: "date corrected" }])).toEqual([]);
    // The same change bringing the version is approved by the entry.
    const brought = {
      ...pairs[0]!,
      dataset: { slug: "bgb", versionDate: { before: "2024-01-01", after: "2025-07-01" } },
    };
    expect(approves(entry, pairs[0]!.changes[0]!, brought)).toBe(true);
  });
});

describe("1b. a removal approved in one version", () => {
  test("does not approve the same address removed in a later version: the entry is stale, and a new one is written", () => {
    const removal = {
      kind: "record-removed" as const,
      class: "breaking" as const,
      address: "mg/index.md#§-10",
      message: "mg/index.md#§-10 removed",
    };
    const version = (before: string, after: string): DiffPair[] => [
      {
        type: "records" as const,
        old: "old/mg.jsonl",
        new: "new/mg.jsonl",
        dataset: { slug: "mg", versionDate: { before, after } },
        changes: [{ ...removal }],
        warnings: [],
      },
    ];
    const reportOf = (pairs: DiffPair[]): DiffReport => ({
      pairs,
      summary: summarizeDiff(pairs, "breaking"),
      warnings: [],
    });
    // 2025: the old § 10 repealed; the entry written names the version, and reviewed, it approves the removal.
    const first = version("2024-01-01", "2025-01-01");
    const written = approvalsToAdd(reportOf(first), []).map((a) => a.approval);
    expect(written).toEqual([
      {
        dataset: "mg",
        versionDate: "2025-01-01",
        address: "mg/index.md#§-10",
        kind: "record-removed",
        reason: expect.any(String),
      },
    ]);
    const reviewed = { ...written[0]!, reason: "aufgehoben durch G v. 1.12.2024" };
    expect(applyApprovals(first, [reviewed])).toEqual([]);
    expect(first[0]!.changes[0]!.approved).toEqual({ reason: "aufgehoben durch G v. 1.12.2024" });
    // 2026: a § 10 enacted since is repealed at the same address; nobody reviewed that.
    const later = version("2025-06-01", "2026-01-01");
    const unmatched = applyApprovals(later, [reviewed]);
    expect(later[0]!.changes[0]!).not.toHaveProperty("approved");
    expect(summarizeDiff(later, "breaking").passed).toBe(false);
    expect(approvalWarnings([reviewed], unmatched, later)).toEqual([
      'approval {"dataset":"mg","versionDate":"2025-01-01","address":"mg/index.md#§-10","kind":"record-removed"} is for mg 2025-01-01, not 2026-01-01: stale (it approves nothing; review the new version\'s changes)',
    ]);
    expect(approvalsToAdd(reportOf(later), [reviewed]).map((a) => a.approval.versionDate)).toEqual(["2026-01-01"]);
    // An entry by address alone (written by hand, or before entries named the version) still approves, and says so.
    const unscoped = { address: "mg/index.md#§-10", kind: "record-removed" as const, reason: "aufgehoben" };
    const again = version("2025-06-01", "2026-01-01");
    expect(applyApprovals(again, [unscoped])).toEqual([]);
    expect(again[0]!.changes[0]!.approved).toEqual({ reason: "aufgehoben" });
    expect(approvalWarnings([unscoped], [], again)).toEqual([
      'approval {"address":"mg/index.md#§-10","kind":"record-removed"} names no versionDate, so it approves such a change in every version of the law (here mg 2026-01-01), not only the one it was reviewed for: name its "dataset" and that "versionDate" by hand (--write-approvals writes new entries so, and leaves this one as it is)',
    ]);
  });
});

describe("2. editorial changes told apart", () => {
  test("white space, footnotes (references, definitions, inline superscripts), and words", () => {
    const text = (markdown: string) => ({ markdown, headingText: "§ 1 X", headingTrail: ["Gesetz"] });
    expect(classifyTextChange(text("## § 1 X\n\nEin  Satz.\n"), text("## § 1 X\n\nEin Satz.\n"))).toBe("whitespace");
    expect(
      classifyTextChange(
        text("## § 1 X\n\nEin Satz.[^1]\n\n[^1]: Geändert 2020.\n"),
        text("## § 1 X\n\nEin Satz.[^7]\n\n[^7]: Geändert 2025 durch\n    Art. 2.\n"),
      ),
    ).toBe("footnotes");
    expect(classifyTextChange(text("Ein Satz.<sup>15</sup>\n"), text("Ein Satz.<sup>23</sup>\n"))).toBe("footnotes");
    // A superscript at the start of a line numbers a paragraph (Swiss Absätze): renumbering it is more than editorial.
    expect(classifyTextChange(text("<sup>1</sup> Ein Satz.\n"), text("<sup>2</sup> Ein Satz.\n"))).toBe("words");
    expect(classifyTextChange(text("Ein Satz.[^1]\n"), text("Ein anderer Satz.[^1]\n"))).toBe("words");
    expect(withoutFootnotes("A.[^1]\n\n[^1]: Note\ngoes on.\n\nB.\n")).toBe("A.\n\n\nB.\n");
  });

  test("the JSON change says textChange; --pass-editorial and the config's diff.passEditorial let footnotes pass", async () => {
    const plain = await diffJson(["HEAD~1", "HEAD"]);
    const byAddress = Object.fromEntries(changesOf(plain.report).map((c) => [c.address, c.textChange]));
    expect(byAddress).toMatchObject({
      "bgb/index.md#§-1": "words",
      "stgb/index.md#§-1": "words",
      "zpo/index.md#§-1": "footnotes",
      "zpo/index.md#§-2": "footnotes",
    });
    expect(changesOf(plain.report).map((c) => c.kind)).toEqual([
      "record-changed",
      "record-removed",
      "record-removed",
      "record-changed",
      "record-changed",
      "record-changed",
    ]);
    const passing = await diffJson(["HEAD~1", "HEAD", "--pass-editorial"]);
    expect(passing.report.summary).toMatchObject({ approved: 2, failing: 4 });
    expect(changesOf(passing.report).find((c) => c.address === "zpo/index.md#§-2")?.approved).toEqual({
      reason: "editorial: only footnote references and definitions changed (--pass-editorial)",
    });
    const config = join(repo, ".citation-targets.json");
    const before = await readFile(config, "utf8");
    try {
      await writeFile(config, JSON.stringify({ ...JSON.parse(before), diff: { passEditorial: true } }));
      const fromConfig = await diffJson(["HEAD~1", "HEAD"]);
      expect(fromConfig.report.summary).toMatchObject({ approved: 2, failing: 4 });
      // The library reads it only when asked (config: true), as the CLI does.
      const library = await libraryDiff({ cwd: repo, against: "HEAD~1", to: "HEAD", config: true });
      expect(library.summary).toMatchObject({ approved: 2, failing: 4 });
      expect((await libraryDiff({ cwd: repo, against: "HEAD~1", to: "HEAD" })).summary).toMatchObject({
        approved: 0,
        failing: 6,
      });
    } finally {
      await writeFile(config, before);
    }
  });

  test("stylish, HTML and JUnit show it", async () => {
    const stylish = await runMain(["diff", "HEAD~1", "HEAD"], repo);
    expect(stylish.stdout).toContain(
      '  breaking  record-changed  zpo/index.md#§-1  "§ 1 Sachliche Zuständigkeit"\n                            editorial: only footnote references and definitions changed\n',
    );
    expect(stylish.stderr).toContain("citation-targets: hint: the changes marked editorial only renumbered");
    const html = await runMain(["diff", "HEAD~1", "HEAD", "--format", "html"], repo);
    expect(html.stdout).toMatch(
      /data-address="zpo\/index.md#§-1">.*<span class="badge editorial">editorial<\/span>.*only footnote references and definitions changed/,
    );
    const junit = await runMain(["diff", "HEAD~1", "HEAD", "--format", "junit"], repo);
    expect(junit.stdout).toContain(
      "text change: footnotes (editorial: only footnote references and definitions changed)",
    );
    expect(junit.stdout).toContain("text change: words");
  });
});

describe("3. dataset lines", () => {
  test("stylish, HTML and the job summary give a dataset added, removed or given a new version a line; JUnit keeps a case per record change", async () => {
    const stylish = await runMain(["diff", "HEAD~1", "HEAD"], repo);
    expect(stylish.stdout).toContain(
      "  dataset rabattg removed (version 2024-01-01, 2 records)\n  breaking  record-removed  rabattg/index.md#rabattgesetz",
    );
    expect(stylish.stdout).toContain("  dataset bgb: new version 2024-01-01 → 2025-07-01 (3 → 3 records)\n");
    const html = await runMain(["diff", "HEAD~1", "HEAD", "--format", "html"], repo);
    expect(html.stdout).toContain(
      '<p class="dataset-line">dataset rabattg removed (version 2024-01-01, 2 records)</p>',
    );
    const summary = join(dir, "summary.md");
    await rm(summary, { force: true });
    const withSummary = await runMain(["diff", "HEAD~1", "HEAD"], repo, { GITHUB_STEP_SUMMARY: summary });
    expect(withSummary.code).toBe(1);
    const written = await readFile(summary, "utf8");
    // Each dataset's line is a heading, with the file and its counts under it and then a table of its changes.
    expect(written).toContain(
      "\n#### dataset rabattg removed \\(version 2024\\-01\\-01\\, 2 records\\)\n\n`HEAD:.tooling/citation-targets/rabattg.jsonl`: 2 changes, 2 failing the gate\n\n| class | kind | address | heading | gate |\n|---|---|---|---|---|\n| breaking | record-removed | `rabattg/index.md#rabattgesetz` | Rabattgesetz | fails |\n| breaking | record-removed | `rabattg/index.md#§-1` | § 1 Preisnachlass | fails |\n\n",
    );
    expect(written).toContain(
      "\n#### dataset zpo\\: new version 2024\\-01\\-01 → 2025\\-07\\-01 \\(3 → 3 records\\)\n\n`HEAD:.tooling/citation-targets/zpo.jsonl`: 2 changes, 2 failing the gate\n\n| class | kind | address | heading | gate |\n",
    );
    expect(written.match(/^#### /gm)).toHaveLength(4);
    const junit = await runMain(["diff", "HEAD~1", "HEAD", "--format", "junit"], repo);
    expect(junit.stdout.match(/<testcase /g)).toHaveLength(6);
    expect(junit.stdout).toContain(
      '<property name="dataset" value="dataset rabattg removed (version 2024-01-01, 2 records)"/>',
    );
  });

  test("json keeps the kinds per record and marks the dataset removed with newMissing", async () => {
    const { report } = await diffJson(["HEAD~1", "HEAD"]);
    const removed = report.pairs.find((pair) => pair.dataset?.slug === "rabattg")!;
    expect(removed).toMatchObject({
      newMissing: true,
      dataset: { slug: "rabattg", versionDate: { before: "2024-01-01" } },
    });
    expect(removed.changes.map((c) => c.kind)).toEqual(["record-removed", "record-removed"]);
  });
});

describe("4. diff REV1 REV2", () => {
  test("both sides read at revisions, with the working tree's approvals; paths after --", async () => {
    const { code, report } = await diffJson(["HEAD~1", "HEAD"]);
    expect(code).toBe(1);
    expect(report.against?.revision).toBe("HEAD~1");
    expect(report.to?.revision).toBe("HEAD");
    expect(report.pairs.filter((pair) => pair.changes.length > 0).map((pair) => pair.new)).toEqual([
      "HEAD:.tooling/citation-targets/bgb.jsonl",
      "HEAD:.tooling/citation-targets/rabattg.jsonl",
      "HEAD:.tooling/citation-targets/stgb.jsonl",
      "HEAD:.tooling/citation-targets/zpo.jsonl",
    ]);
    // Annotations and SARIF place a change in the file by its path, without the revision.
    const github = await runMain(["diff", "HEAD~1", "HEAD", "--format", "github"], repo);
    expect(github.stdout).toContain(
      "::error file=.tooling/citation-targets/zpo.jsonl,line=2,title=record-changed (breaking)::zpo/index.md#§-1: markdown, textDigest changed%0Aeditorial: only footnote references and definitions changed%0A",
    );
    const sarif = JSON.parse((await runMain(["diff", "HEAD~1", "HEAD", "--format", "sarif"], repo)).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      ".tooling/citation-targets/bgb.jsonl",
    );
    const one = await diffJson(["HEAD~1", "HEAD", "--", ".tooling/citation-targets/zpo.jsonl"]);
    expect(one.report.pairs.map((pair) => pair.new)).toEqual(["HEAD:.tooling/citation-targets/zpo.jsonl"]);
  });

  test("neither two paths nor two revisions is exit 2 naming both readings; -- makes them paths; an existing path wins", async () => {
    const neither = await runMain(["diff", "HEAD~1", "nope"], repo);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain(
      "diff HEAD~1 nope: not two paths (HEAD~1: no such file or folder, nope: no such file or folder) and not two git revisions (nope: not a revision in this repository)",
    );
    const paths = await runMain(["diff", "--", "HEAD~1", "HEAD"], repo);
    expect(paths.code).toBe(2);
    expect(paths.stderr).toContain("cannot read HEAD~1: no such file or folder");
    // Files named like revisions are files.
    const zpo = await readFile(join(repo, ".tooling/citation-targets/zpo.jsonl"), "utf8");
    await writeTree(dir, { "HEAD~1": zpo, HEAD: zpo });
    const files = await runMain(["diff", join(dir, "HEAD~1"), join(dir, "HEAD")], repo);
    expect(files.code).toBe(0);
    expect(files.stdout).toContain("✔ no changes (1 file, 3 → 3 records)");
  });
});

describe("5. CI formats for freshness", () => {
  test("update --check and generate --check take --format github, sarif, junit", async () => {
    const law = join(repo, "laws/bgb/index.md");
    const before = await readFile(law, "utf8");
    try {
      await writeFile(law, before.replace("Lebensjahres", "Lebensjahrs"));
      const github = await runMain(["update", "--check", "--format", "github"], repo);
      expect(github.code).toBe(1);
      expect(github.stdout).toMatch(
        /^::error file=\.tooling\/citation-targets\/bgb\.lock\.json,title=not up to date%3A bgb::not up to date: its lock manifest would change%0Aartifacts: /,
      );
      // The slug is said once: the annotation's title has it (gitlab's description starts with it).
      expect(github.stdout).not.toContain("bgb: not up to date");
      const gitlab = JSON.parse((await runMain(["update", "--check", "--format", "gitlab"], repo)).stdout);
      expect(gitlab[0].description).toMatch(/^bgb: not up to date: its lock manifest would change\nartifacts: /);
      expect(github.stdout).toContain(
        "✖ 1 of 3 datasets not up to date (update --check): run `citation-targets update`",
      );
      const junit = await runMain(["update", "--check", "--format", "junit"], repo);
      expect(junit.stdout).toContain('<testsuite name="update --check" tests="3" failures="1" errors="0">');
      expect(junit.stdout).toContain(
        '<testcase classname=".tooling/citation-targets/bgb.lock.json" name="bgb"><failure type="not-up-to-date"',
      );
      expect(junit.stdout).toContain(
        '<testcase classname=".tooling/citation-targets/zpo.lock.json" name="zpo"><system-out>',
      );
      const sarif = JSON.parse((await runMain(["update", "--check", "--format", "sarif"], repo)).stdout);
      // The markdown changed without a new versionDate: update's warning is a rule of its own (the next test).
      expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
        "not-up-to-date",
        "update-warning",
      ]);
      expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
        "not-up-to-date",
        "update-warning",
      ]);
      expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
        uri: ".tooling/citation-targets/bgb.lock.json",
        uriBaseId: "%SRCROOT%",
      });
      // generate --check of the dataset at fault (its markdown changed): the update is its fix, said once.
      const atFault = await runMain(
        [
          "generate",
          ".tooling/citation-targets/bgb.lock.json",
          "--check",
          ".tooling/citation-targets/bgb.jsonl",
          "--format",
          "github",
        ],
        repo,
      );
      const annotation = atFault.stdout.split("\n").find((line) => line.startsWith("::error"))!;
      expect(annotation.match(/citation-targets update/g)).toHaveLength(1);
      expect(annotation).toContain("%0Afix: citation-targets update .tooling/citation-targets/bgb.lock.json");
      const notCheck = await runMain(["update", "--format", "github"], repo);
      expect(notCheck.code).toBe(2);
      expect(notCheck.stderr).toContain(
        "--format github is the report of --check (for CI): add --check (citation-targets update --check --format github)",
      );
    } finally {
      await writeFile(law, before);
    }
    const jsonl = join(repo, ".tooling/citation-targets/zpo.jsonl");
    const lines = await readFile(jsonl, "utf8");
    try {
      await writeFile(jsonl, lines.split("\n").slice(1).join("\n"));
      const junit = await runMain(
        [
          "generate",
          ".tooling/citation-targets/zpo.lock.json",
          "--check",
          ".tooling/citation-targets/zpo.jsonl",
          "--format",
          "junit",
        ],
        repo,
      );
      expect(junit.code).toBe(1);
      expect(junit.stdout).toContain(
        '<testcase classname=".tooling/citation-targets/zpo.lock.json" name="zpo"><failure',
      );
      const github = await runMain(
        [
          "generate",
          ".tooling/citation-targets/zpo.lock.json",
          "--check",
          ".tooling/citation-targets/zpo.jsonl",
          "--format",
          "github",
        ],
        repo,
      );
      expect(github.stdout).toMatch(/^::error file=\.tooling\/citation-targets\/zpo\.lock\.json,/);
    } finally {
      await writeFile(jsonl, lines);
    }
    const fresh = await runMain(["update", "--check", "--format", "junit"], repo);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('tests="3" failures="0"');
  });

  test("update --check's warnings are in each CI format, at the dataset's manifest, as warnings", async () => {
    const law = join(repo, "laws/bgb/index.md");
    const before = await readFile(law, "utf8");
    const manifest = ".tooling/citation-targets/bgb.lock.json";
    try {
      await writeFile(law, before.replace("Lebensjahres", "Lebensjahrs"));
      const run = (format: string) => runMain(["update", "--check", "--format", format], repo);
      // The warning the json report carries (the config's template gives an older versionDate than the one set).
      const json = JSON.parse((await run("json")).stdout) as { datasets: { slug: string; warnings: string[] }[] };
      const [warning = ""] = json.datasets.find((dataset) => dataset.slug === "bgb")!.warnings;
      expect(warning).toMatch(/^bgb: the config's versionDate template gives /);
      const github = await run("github");
      expect(github.code).toBe(1);
      expect(github.stdout).toContain(`\n::warning file=${manifest},title=warning%3A bgb::${warning}`);
      const sarif = JSON.parse((await run("sarif")).stdout);
      const rules = sarif.runs[0].tool.driver.rules as { id: string; defaultConfiguration: { level: string } }[];
      const result = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === "update-warning");
      expect(result).toMatchObject({ level: "warning", message: { text: expect.stringContaining(warning) } });
      expect(rules[result.ruleIndex]).toMatchObject({
        id: "update-warning",
        defaultConfiguration: { level: "warning" },
      });
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(manifest);
      const gitlab = JSON.parse((await run("gitlab")).stdout) as { check_name: string; severity: string }[];
      expect(gitlab.find((issue) => issue.check_name === "update-warning")).toMatchObject({
        severity: "minor",
        description: expect.stringContaining(warning),
        location: { path: manifest },
      });
      const junit = await run("junit");
      expect(junit.stdout).toContain(`warning: ${warning.replace(/'/g, "&apos;")}`);
      // Said in the report, not on stderr a second time; and still one case per dataset.
      for (const report of [github, junit]) expect(report.stderr).not.toContain("versionDate");
      expect(junit.stdout).toContain('tests="3" failures="1"');
    } finally {
      await writeFile(law, before);
    }
  });
});
