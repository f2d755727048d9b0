/**
 * Issue 24: the two HTML pages, checked in a DOM without a browser (jsdom runs their inline
 * script). `view`: the counts, the tree in document order, a search, a text expanded, the texts
 * left out past --max-text-bytes, nothing from the network. `diff --format html`: the verdict, the
 * counts, one section per changed dataset with the breaking changes first, the word diff of each
 * changed text, the approvals, for --against REV and for two folders. Both pages: no axe-core
 * violation at WCAG 2.1 AA. The browser test (test-browser/) opens the same pages in Chromium.
 */
import { readFile, mkdir, writeFile, cp } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runMain } from "./helpers/in-process.js";
import { parentsOf, type ViewTarget } from "../src/formatters/dataset-html.js";
import { wordDiffHtml } from "../src/formatters/diff-html.js";
import { jsonForScript } from "../src/formatters/html-common.js";
import { AMENDED_SENTENCE, amendedRepository, MVFG_NEW_WORDS } from "./helpers/amended-repository.js";
import { tempDir } from "./helpers/datasets.js";
import { axeViolations, loadPage, typeInto } from "./helpers/dom.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
let repo: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  repo = await amendedRepository(dir);
});
afterAll(async () => cleanup());

async function run(
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runMain(argv, cwd, env);
}

const records = async (path: string) =>
  (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map(
      (line) =>
        JSON.parse(line) as { citationAddress: string; headingText: string; markdown?: string; targetKind: string },
    );

const visibleAddresses = (document: Document) =>
  Array.from(document.querySelectorAll<HTMLLIElement>("li[data-i]"))
    .filter((li) => !li.closest("[hidden]"))
    .map((li) => li.querySelector(".addr")!.textContent);

describe("view: a dataset as a page", () => {
  test("the counts, the tree in document order, a search and a text on demand", async () => {
    const output = join(dir, "mvfg.html");
    const result = await run(["view", ".tooling/citation-targets/mvfg.jsonl", "-o", output], repoRoot);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toContain(`wrote ${output} (21 targets)`);
    const expected = await records(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"));
    const dom = loadPage(await readFile(output, "utf8"));
    const document = dom.window.document;
    expect(document.querySelector("h1")!.textContent).toBe("Musterverfahrensgesetz");
    expect(document.querySelector('[data-count="targets"]')!.textContent).toBe(`${expected.length} targets`);
    expect(document.querySelector('[data-count="containers"]')!.textContent).toBe("0 containers");
    expect(document.querySelector('[data-count="artifacts"]')!.textContent).toBe("1 artifact file");
    // Every record once, in document order; § 1 sits in the list of its section (Erster Abschnitt), which sits in
    // Kapitel 1.
    expect(visibleAddresses(document)).toEqual(expected.map((r) => r.citationAddress));
    const paragraph1 = document.querySelector('li[data-i="3"]')!;
    expect(paragraph1.querySelector(".heading")!.textContent).toBe("§ 1 Anwendungsbereich");
    const ancestors = [];
    for (let li = paragraph1.parentElement!.closest("li"); li; li = li.parentElement!.closest("li"))
      ancestors.push(li.querySelector(".heading")!.textContent);
    expect(ancestors).toEqual([
      "Erster Abschnitt - Anwendungsbereich",
      "Erstes Kapitel - Allgemeine Vorschriften",
      expected[0]!.headingText,
    ]);
    expect(paragraph1.querySelector(".trail")!.textContent).toBe(
      `in ${expected[0]!.headingText} › Erstes Kapitel - Allgemeine Vorschriften › Erster Abschnitt - Anwendungsbereich`,
    );

    // A search by heading: the matches and the targets that hold them stay, the rest hide.
    typeInto(dom, "#q", "amtshilfe");
    expect(document.getElementById("status")!.textContent).toBe("1 target matches “amtshilfe”");
    const hits = Array.from(document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent);
    expect(hits).toEqual(["mvfg/mvfg.md#§-4"]);
    expect(visibleAddresses(document)).toEqual([
      "mvfg/mvfg.md#gesetz-über-das-verwaltungsverfahren-der",
      "mvfg/mvfg.md#kapitel-1",
      "mvfg/mvfg.md#kapitel-1/abschnitt-2",
      "mvfg/mvfg.md#§-4",
    ]);
    // By address, case-insensitive; clearing the search shows everything again.
    typeInto(dom, "#q", "#§-3");
    expect(Array.from(document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent)).toEqual(
      ["mvfg/mvfg.md#§-3", "mvfg/mvfg.md#§-35"],
    );
    expect(document.getElementById("status")!.textContent).toBe("2 targets match “#§-3”");
    typeInto(dom, "#q", "");
    expect(visibleAddresses(document)).toHaveLength(expected.length);
    expect(document.querySelectorAll("li.hit")).toHaveLength(0);
    expect(document.getElementById("status")!.textContent).toBe(`${expected.length} targets`);

    // A text on demand: not in the tree until asked for, then the record's markdown exactly.
    const button = paragraph1.querySelector<HTMLButtonElement>("button.tx")!;
    expect(paragraph1.querySelector("pre")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
    button.click();
    const pre = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect(pre.parentElement).toBe(paragraph1);
    expect(pre.hidden).toBe(false);
    expect(pre.textContent).toBe(expected[3]!.markdown);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.textContent).toBe("Hide text");
    button.click();
    expect(pre.hidden).toBe(true);
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("a multi-file act: containers hold the files below their folder", async () => {
    const result = await run(["view", ".tooling/citation-targets/privacy-act-1988.jsonl"], repoRoot);
    expect(result.code).toBe(0);
    const dom = loadPage(result.stdout);
    const document = dom.window.document;
    expect(document.querySelector('[data-count="targets"]')!.textContent).toBe("42 targets");
    expect(document.querySelector('[data-count="containers"]')!.textContent).toBe("8 containers");
    const section13 = Array.from(document.querySelectorAll("li[data-i]")).find(
      (li) => li.querySelector(".addr")!.textContent === "privacy-act-1988/part-iii/division-1/section-13.md#13",
    )!;
    const holder = section13.parentElement!.closest("li")!;
    expect(holder.querySelector(".addr")!.textContent).toBe("privacy-act-1988/part-iii/division-1/");
    expect(holder.querySelector(".badge")!.textContent).toBe("container");
    expect(holder.querySelector(":scope > .row button")).toBeNull(); // a container has no text
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("the page is self-contained, and a text that looks like markup stays text", async () => {
    const file = join(dir, "hostile.jsonl");
    const markdown = "## 1 </script><script>document.title='owned'</script> <!-- <b>bold</b>\n\u2028x\n";
    const lines = [
      {
        citationAddress: "h/a.md#1",
        targetKind: "markdown-artifact",
        headingText: "1 <b>Not bold</b>",
        headingTrail: [],
        artifactRelativePath: "a.md",
        markdown,
        slug: "h",
      },
      {
        citationAddress: "h/a.md#1/x",
        targetKind: "markdown-artifact",
        headingText: "x",
        headingTrail: ["1 <b>Not bold</b>"],
        artifactRelativePath: "a.md",
        markdown: "x",
        slug: "h",
      },
    ];
    await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\nnot a record\n`);
    const result = await run(["view", file], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "hostile.jsonl: 1 line is not a record with a citationAddress and is not shown (run citation-targets validate)",
    );
    const html = result.stdout;
    // Nothing is loaded from elsewhere: no src, no stylesheet link, no url(), no @import.
    expect(html).not.toMatch(/\ssrc=|<link|url\(|@import|https?:\/\/(?!www\.w3)/);
    const dom = loadPage(html);
    const document = dom.window.document;
    expect(document.title).toBe("h: citation targets");
    expect(document.querySelector(".heading")!.textContent).toBe("1 <b>Not bold</b>");
    expect(document.querySelectorAll("b")).toHaveLength(0);
    document.querySelector<HTMLButtonElement>("button.tx")!.click();
    expect(document.getElementById("x0")!.textContent).toBe(markdown);
    expect(JSON.parse(jsonForScript(markdown))).toBe(markdown);
  });

  test("past --max-text-bytes the texts are left out, said on stderr and on the page; tree and search stay", async () => {
    const result = await run(["view", ".tooling/citation-targets/mvfg.jsonl", "--max-text-bytes", "1000"], repoRoot);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /mvfg\.jsonl: the texts hold [0-9]+ bytes, more than --max-text-bytes 1000: the page leaves them out \(the tree and the search are complete\)/,
    );
    const dom = loadPage(result.stdout);
    const document = dom.window.document;
    expect(document.querySelector('[role="note"]')!.textContent).toContain("The texts are left out");
    expect(document.querySelectorAll("li[data-i]")).toHaveLength(21);
    expect(document.querySelectorAll("button.tx")).toHaveLength(0);
    typeInto(dom, "#q", "§ 35");
    expect(document.getElementById("status")!.textContent).toBe("1 target matches “§ 35”");
  });

  test("bad input is a clear error, exit 2, no stack trace", async () => {
    const missing = await run(["view", "nope.jsonl"], dir);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toBe(
      "citation-targets: nope.jsonl: no dataset by that name: tried a file and a folder (nope.jsonl: no such file or folder) and a slug (.tooling/citation-targets/nope.lock.json: not there): name a lock manifest, its JSONL, a markdown file or folder of its dataset, or its slug\n",
    );
    const folder = await run(["view", "."], dir);
    expect(folder).toMatchObject({ code: 2, stdout: "" });
    expect(folder.stderr).toBe(
      "citation-targets: .: a folder, but no dataset's folder holds it or lies in it (no lock manifest in .tooling/citation-targets, and no citation-targets.lock.json in it): name a lock manifest, a dataset's folder or its slug, or adopt the folder first (citation-targets adopt .)\n",
    );
    await writeFile(join(dir, "notes.jsonl"), "hello\nworld\n");
    const notRecords = await run(["view", "notes.jsonl"], dir);
    expect(notRecords).toMatchObject({
      code: 2,
      stderr:
        "citation-targets: notes.jsonl is not a citation-targets JSONL file: none of its 2 lines is a record with a citationAddress\n",
    });
    await cp(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), join(dir, "copy.jsonl"));
    const over = await run(["view", "copy.jsonl", "-o", "copy.jsonl"], dir);
    expect(over).toMatchObject({
      code: 2,
      stderr:
        "citation-targets: refusing to write copy.jsonl: it is the dataset file, an input of this run; write the output elsewhere\n",
    });
    const overCompared = await run(
      [
        "diff",
        join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"),
        "copy.jsonl",
        "--format",
        "html",
        "--output-file",
        "copy.jsonl",
      ],
      dir,
    );
    expect(overCompared).toMatchObject({
      code: 2,
      stdout: "",
      stderr:
        "citation-targets: refusing to write copy.jsonl: it is the compared copy.jsonl, an input of this run; write the output elsewhere\n",
    });
    const bad = await run(["view", "notes.jsonl", "--max-text-bytes", "0"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("expected a whole number, 1 or more");
  });

  test("parents: a container holds the files below its folder, a heading holds the later headings of its file that continue its trail", () => {
    const t = (address: string, kind: string, artifact: string, heading: string, trail: string[]): ViewTarget => ({
      address,
      kind,
      artifact,
      heading,
      trail,
    });
    const targets = [
      t("a/", "structural-container", "part-1", "Part 1", []),
      t("a/part-1/index.md#p", "markdown-artifact", "part-1/index.md", "Part 1", []),
      t("a/part-1/s1.md#1", "markdown-artifact", "part-1/s1.md", "1 One", ["Part 1"]),
      t("a/part-1/s1.md#1/a", "markdown-artifact", "part-1/s1.md", "(a)", ["Part 1", "1 One"]),
      t("a/part-1/s2.md#2", "markdown-artifact", "part-1/s2.md", "2 Two", ["Part 1"]),
      t("a/part-10/", "structural-container", "part-10", "Part 10", []),
      t("a/top.md#x", "markdown-artifact", "top.md", "X", []),
    ];
    expect(parentsOf(targets)).toEqual([-1, 0, 0, 2, 0, -1, -1]);
  });
});

describe("diff --format html: an amendment as a page", () => {
  test("--against HEAD: verdict, counts, a section per dataset, breaking first, word diffs, approvals", async () => {
    const result = await run(
      [
        "diff",
        "--against",
        "HEAD",
        "--format",
        "html",
        "--output-file",
        "amendment.html",
        "--approvals",
        "approvals.json",
      ],
      repo,
    );
    expect(result.code).toBe(1);
    // The terminal still gets the stylish report.
    expect(result.stdout).toContain("breaking  record-changed  privacy-act-1988/part-i/section-1.md#1");
    const dom = loadPage(await readFile(join(repo, "amendment.html"), "utf8"));
    const document = dom.window.document;
    const count = (name: string) => document.querySelector(`[data-count="${name}"] strong`)!.textContent;
    expect(document.querySelector("[data-verdict]")!.getAttribute("data-verdict")).toBe("fail");
    expect(document.querySelector("[data-verdict]")!.textContent).toBe(
      "✖ 7 changes fail the gate (--fail-on breaking)",
    );
    expect([
      count("changes"),
      count("breaking"),
      count("additive"),
      count("approved"),
      count("failing"),
      count("datasets"),
    ]).toEqual(["13", "8", "5", "1", "7", "2"]);
    expect(count("moves")).toBe("2");
    expect(document.querySelector("header p.muted")!.textContent).toMatch(
      /^2 pairs compared against HEAD \([0-9a-f]{12}\)$/,
    );
    // One section per dataset that changed, both breaking; in the report's order.
    const sections = Array.from(document.querySelectorAll("section.pair"));
    expect(sections.map((s) => s.getAttribute("data-file"))).toEqual([
      ".tooling/citation-targets/mvfg.jsonl",
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    const privacy = sections[1]!;
    const classes = Array.from(privacy.querySelectorAll(".change")).map((c) => c.getAttribute("data-class"));
    expect(classes).toEqual([...Array(7).fill("breaking"), ...Array(5).fill("additive")]);
    // The word diff of section 1: the added sentence, inserted; nothing removed.
    const s1 = privacy.querySelector('[data-address="privacy-act-1988/part-i/section-1.md#1"]')!;
    expect(
      Array.from(s1.querySelectorAll("pre.wdiff ins"))
        .map((e) => e.textContent)
        .join(""),
    ).toBe(`\n${AMENDED_SENTENCE}\n`);
    expect(s1.querySelectorAll("pre.wdiff del")).toHaveLength(0);
    // Section 6: the heading word replaced, in the text too.
    const s6 = privacy.querySelector('[data-address="privacy-act-1988/part-i/section-6.md#6"]')!;
    expect(Array.from(s6.querySelectorAll("pre.wdiff del")).map((e) => e.textContent)).toEqual(["Interpretation"]);
    expect(Array.from(s6.querySelectorAll("pre.wdiff ins")).map((e) => e.textContent)).toEqual([
      "Definitions and interpretation",
    ]);
    expect(s6.querySelector(".details")!.textContent).toContain(
      'headingText: "6 Interpretation" → "6 Definitions and interpretation"',
    );
    // The German code: one word of § 1 replaced.
    const p1 = sections[0]!.querySelector('[data-address="mvfg/mvfg.md#§-1"]')!;
    expect(Array.from(p1.querySelectorAll("pre.wdiff del")).map((e) => e.textContent)).toEqual(["Musterbehörden"]);
    expect(Array.from(p1.querySelectorAll("pre.wdiff ins")).map((e) => e.textContent)).toEqual([MVFG_NEW_WORDS]);
    // The approval that applies, and the change it covers marked so.
    const approvals = document.querySelector('table[aria-labelledby="approvals"]')!;
    expect(Array.from(approvals.querySelectorAll("tbody td")).map((td) => td.textContent)).toEqual([
      "privacy-act-1988/part-iii/division-1/section-13a.md#13a",
      "record-removed",
      "Section 13A repealed by Act No. 1, 2025",
    ]);
    const repealed = privacy.querySelector('[data-address="privacy-act-1988/part-iii/division-1/section-13a.md#13a"]')!;
    expect(repealed.querySelector("h3")!.textContent).toContain("approved");
    expect(repealed.classList.contains("warning")).toBe(true);
    // A move, named.
    const moved = privacy.querySelector(
      '[data-address="privacy-act-1988/part-iiia/division-2/subdivision-a/section-20.md#20"]',
    )!;
    expect(moved.textContent).toContain(
      "likely moved to privacy-act-1988/part-iiia/division-2/subdivision-b/section-20.md#20 (same textDigest and designation)",
    );
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("two folders of many datasets: one section per dataset that changed, the others counted; a passing gate", async () => {
    const before = join(dir, "released");
    await mkdir(before, { recursive: true });
    for (const name of ["mvfg.jsonl", "privacy-act-1988.jsonl"])
      await cp(join(repoRoot, ".tooling/citation-targets", name), join(before, name));
    const after = join(dir, "current");
    await mkdir(after, { recursive: true });
    await cp(join(repo, ".tooling/citation-targets/mvfg.jsonl"), join(after, "mvfg.jsonl"));
    await cp(join(repoRoot, ".tooling/citation-targets/privacy-act-1988.jsonl"), join(after, "privacy-act-1988.jsonl"));
    const approvals = join(dir, "approve-all.json");
    await writeFile(approvals, JSON.stringify({ approvals: [{ kind: "record-changed", reason: "§ 1 amended" }] }));
    const result = await run(["diff", before, after, "--format", "html", "--approvals", approvals], dir);
    expect(result.code).toBe(0);
    const dom = loadPage(result.stdout);
    const document = dom.window.document;
    expect(document.querySelector("[data-verdict]")!.textContent).toBe("✔ The gate passes (--fail-on breaking)");
    expect(Array.from(document.querySelectorAll("section.pair")).map((s) => s.getAttribute("data-file"))).toEqual([
      "current/mvfg.jsonl",
    ]);
    expect(document.querySelector("main")!.textContent).toContain("1 other pair compared: no changes.");
    expect(document.querySelector('[data-address="mvfg/mvfg.md#§-1"] ins')!.textContent).toBe(MVFG_NEW_WORDS);
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("the word diff marks removed and added words and escapes markup; a text rewritten from end to end is shown whole", () => {
    expect(wordDiffHtml("(1) a <b> c", "(1) a <i> c d")).toBe("(1) a &lt;<del>b</del><ins>i</ins>&gt; c<ins> d</ins>");
    const before = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    const after = Array.from({ length: 3000 }, (_, i) => `v${i}`).join(" ");
    expect(wordDiffHtml(before, after)).toBe(`<del>${before}</del><ins>${after}</ins>`);
  });
});
