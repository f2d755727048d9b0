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
import { parentsOf, renderDatasetPage, type ViewTarget } from "../src/formatters/dataset-html.js";
import { jsonForScript } from "../src/formatters/html-common.js";
import { diffArrays } from "diff";
import { MAX_EDIT_LENGTH, markedTexts, renderMarkdown } from "../src/formatters/markdown-html.js";
import { HOSTILE_MARKDOWN, unsafeParts } from "./helpers/hostile-markdown.js";
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
    // Without JavaScript the page says what does not work (the texts and the search are its script).
    expect(document.querySelector("noscript")!.textContent).toContain('"Show text" and the search do nothing');
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

    // A search in the texts: words of § 1 (1) that neither an address nor a heading holds.
    typeInto(dom, "#q", "Inhaltsgleiche oder");
    expect(document.getElementById("status")!.textContent).toBe("1 target matches “Inhaltsgleiche oder”");
    expect(Array.from(document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent)).toEqual(
      ["mvfg/mvfg.md#§-1"],
    );
    // Words the markup splits (**bold**, a table's cells) are found as the reader sees them: § 2a's table.
    typeInto(dom, "#q", "auskunft 2 wochen");
    expect(Array.from(document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent)).toEqual(
      ["mvfg/mvfg.md#§-2a"],
    );
    typeInto(dom, "#q", "");

    // A text on demand: not in the tree until asked for, then the record's markdown rendered: the heading a bold
    // line, the paragraphs, the wrapper <div> of the German text left out.
    const button = paragraph1.querySelector<HTMLButtonElement>("button.tx")!;
    expect(paragraph1.querySelector(".text")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
    button.click();
    const text = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect(text.parentElement).toBe(paragraph1);
    expect(text.hidden).toBe(false);
    expect(text.querySelector(".mh")!.textContent).toBe("§ 1 Anwendungsbereich");
    expect(Array.from(text.querySelectorAll("p:not(.mh)")).map((p) => p.textContent)).toEqual([
      "(1) Dieses Gesetz gilt für die öffentlich-rechtliche Verwaltungstätigkeit der Musterbehörden.",
      "(2) Es gilt nicht, soweit Rechtsvorschriften inhaltsgleiche oder entgegenstehende Bestimmungen enthalten.",
    ]);
    expect(text.textContent).not.toContain("jnnorm");
    expect(text.textContent).not.toContain("####");
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.textContent).toBe("Hide text");
    button.click();
    expect(text.hidden).toBe(true);
    expect(button.getAttribute("aria-expanded")).toBe("false");
    // § 2a's table, rendered as a table.
    const p2a = Array.from(document.querySelectorAll("li[data-i]")).find(
      (li) => li.querySelector(".addr")!.textContent === "mvfg/mvfg.md#§-2a",
    )!;
    p2a.querySelector<HTMLButtonElement>("button.tx")!.click();
    expect(Array.from(p2a.querySelectorAll(".text table th")).map((th) => th.textContent)).toEqual([
      "Leistung",
      "Frist",
      "Zuständigkeit",
    ]);
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("a link to one target (the page, # and its citationAddress) marks it, opens its text; the head links the official text", async () => {
    const output = join(dir, "mvfg-links.html");
    expect((await run(["view", ".tooling/citation-targets/mvfg.jsonl", "-o", output], repoRoot)).code).toBe(0);
    const html = await readFile(output, "utf8");
    const expected = await records(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"));
    const { JSDOM, VirtualConsole } = await import("jsdom");
    const at = async (hash: string) => {
      const page = new JSDOM(html, {
        runScripts: "dangerously",
        pretendToBeVisual: true,
        url: `http://localhost/mvfg.html${hash}`,
        virtualConsole: new VirtualConsole(),
      });
      if (page.window.document.readyState !== "complete")
        await new Promise((resolve) => page.window.addEventListener("load", resolve));
      return page;
    };
    const marked = (dom: InstanceType<typeof JSDOM>) =>
      [...dom.window.document.querySelectorAll("li.here")].map((li) => li.querySelector(".addr")!.textContent);
    // As a browser sends it: the § percent-encoded.
    const dom = await at("#mvfg/mvfg.md#%C2%A7-1");
    expect(marked(dom)).toEqual(["mvfg/mvfg.md#§-1"]);
    const li = dom.window.document.querySelector("li.here")!;
    expect(li.querySelector("button.tx")!.getAttribute("aria-expanded")).toBe("true");
    expect((li.querySelector(":scope > div.text") as HTMLElement).hidden).toBe(false);
    expect(li.querySelector(":scope > div.text")!.textContent).toContain("Anwendungsbereich");
    // Another target's link: the mark moves.
    // The page's listener was added first: it has run when the test's runs.
    const changed = new Promise((resolve) => dom.window.addEventListener("hashchange", resolve, { once: true }));
    dom.window.location.hash = "#mvfg/mvfg.md#%C2%A7-2";
    await changed;
    expect(marked(dom)).toEqual(["mvfg/mvfg.md#§-2"]);
    // An address the page does not hold marks nothing.
    expect(marked(await at("#mvfg/mvfg.md#%C2%A7-99"))).toEqual([]);
    const official = dom.window.document.querySelector("header a, h1 + p a")!;
    expect(official.textContent).toBe("the official text");
    expect(official.getAttribute("href")).toBe((expected[0] as unknown as { sourceTextUrl: string }).sourceTextUrl);
    expect(official.getAttribute("href")).toMatch(/^https:\/\//);
  });

  test("a text's lists keep their numbers and bullets inside the tree (the tree's rules are its own items' only)", () => {
    const page = renderDatasetPage({
      file: "gesetz.jsonl",
      slug: "gesetz",
      name: "Beispielgesetz",
      targets: [
        {
          address: "gesetz/index.md#§-1",
          kind: "markdown-artifact",
          heading: "§ 1 Anwendungsbereich",
          trail: [],
          artifact: "index.md",
          text: "### § 1 Anwendungsbereich\n\n(2) Es gilt nicht für\n\n1. die Gerichte,\n2. den Rechnungshof.\n\n- Behörde: A\n  - Stelle: B\n",
        },
        {
          address: "gesetz/index.md#§-1/abs-2",
          kind: "markdown-artifact",
          heading: "(2)",
          trail: ["§ 1 Anwendungsbereich"],
          artifact: "index.md",
          text: "(2) Es gilt nicht für\n\n1. die Gerichte,\n",
        },
      ],
    });
    const dom = loadPage(page);
    const document = dom.window.document;
    document.querySelector<HTMLButtonElement>("button.tx")!.click();
    const text = document.getElementById("x0")!;
    const style = (element: Element) => dom.window.getComputedStyle(element);
    const items = Array.from(text.querySelectorAll("li"));
    expect(items.map((li) => li.textContent!.split("\n")[0])).toEqual([
      "die Gerichte,",
      "den Rechnungshof.",
      "Behörde: A",
      "Stelle: B",
    ]);
    // No item of a text is contained (which would clip its number or bullet); the lists keep their markers.
    for (const li of items) expect(style(li).getPropertyValue("content-visibility"), li.textContent!).not.toBe("auto");
    for (const list of text.querySelectorAll("ol, ul")) expect(style(list).listStyle, list.outerHTML).not.toBe("none");
    // The tree's own items and lists keep theirs.
    const tree = Array.from(document.querySelectorAll("li[data-i]"));
    expect(tree).toHaveLength(2);
    for (const li of tree) expect(style(li).getPropertyValue("content-visibility")).toBe("auto");
    for (const list of document.querySelectorAll("ul.tree, li[data-i] > ul"))
      expect(style(list).listStyle).toBe("none");
  });

  test("the search reads citations as resolve does: §433, § 433 BGB, Art 3, Art. 3 Abs. 2 find their target", async () => {
    const target = (address: string, heading: string, trail: string[] = []): ViewTarget => ({
      address,
      kind: "markdown-artifact",
      heading,
      trail,
      artifact: "index.md",
      text: `${heading}\n\nText.\n`,
    });
    const page = renderDatasetPage({
      file: "gesetz.jsonl",
      slug: "gesetz",
      name: "Beispielgesetz",
      targets: [
        target("gesetz/index.md#buch-2", "Buch 2 Schuldrecht"),
        target("gesetz/index.md#§-433", "§ 433 Vertragstypische Pflichten", ["Buch 2 Schuldrecht"]),
        target("gesetz/index.md#§-4330", "§ 4330 Anderes", ["Buch 2 Schuldrecht"]),
        target("gesetz/index.md#art-3", "Art. 3 Gleichheit"),
        target("gesetz/index.md#art-3/abs-1", "(1)", ["Art. 3 Gleichheit"]),
        target("gesetz/index.md#art-3/abs-2", "(2)", ["Art. 3 Gleichheit"]),
        target("gesetz/index.md#art-30", "Art. 30 Länder"),
        target("gesetz/index.md#art-3~übergangsbestimmungen", "Art. 3 (Übergang)"),
      ],
    });
    const dom = loadPage(page);
    const document = dom.window.document;
    const hits = () =>
      Array.from(document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent);
    for (const [query, expected] of [
      ["§433", ["gesetz/index.md#§-433"]],
      ["§ 433 BGB", ["gesetz/index.md#§-433"]],
      ["§ 433 Abs. 1 S. 2", ["gesetz/index.md#§-433"]],
      ["Art 3", ["gesetz/index.md#art-3"]],
      ["Art. 3 Abs. 2", ["gesetz/index.md#art-3/abs-2"]],
      ["Art. 3 II GG", ["gesetz/index.md#art-3/abs-2"]],
      ["Art. 30", ["gesetz/index.md#art-30"]],
    ] as const) {
      typeInto(dom, "#q", query);
      expect(hits(), query).toEqual(expected);
      expect(document.getElementById("status")!.textContent).toBe(`1 target matches “${query}”`);
    }
    // What no target answers as a citation is searched as words; words are words.
    typeInto(dom, "#q", "§ 99");
    expect(hits()).toEqual([]);
    typeInto(dom, "#q", "433");
    expect(hits()).toEqual(["gesetz/index.md#§-433", "gesetz/index.md#§-4330"]);
    typeInto(dom, "#q", "gleichheit");
    expect(hits()).toEqual(["gesetz/index.md#art-3"]);
    // The reader is in the page's one script, its tables in a JSON element of their own.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(document.getElementById("reader")!.getAttribute("type")).toBe("application/json");
  });

  test("the search takes no numbered item of a § for a section (`Paragraph 2` is no item 2 of § 3), as resolve", () => {
    const target = (address: string, heading: string): ViewTarget => ({
      address,
      kind: "markdown-artifact",
      heading,
      trail: [],
      artifact: "index.md",
      text: `${heading}\n\nText.\n`,
    });
    const dom = loadPage(
      renderDatasetPage({
        file: "bg.jsonl",
        slug: "bg",
        targets: [
          target("bg/index.md#§-1", "§ 1 Zweck"),
          target("bg/index.md#§-3", "§ 3 Begriffe"),
          target("bg/index.md#§-3/1", "1."),
          target("bg/index.md#§-3/2", "2."),
        ],
      }),
    );
    const hits = () =>
      Array.from(dom.window.document.querySelectorAll("li.hit")).map((li) => li.querySelector(".addr")!.textContent);
    typeInto(dom, "#q", "Paragraph 2");
    expect(hits()).toEqual([]);
    typeInto(dom, "#q", "Paragraph 1");
    expect(hits()).toEqual(["bg/index.md#§-1"]);
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
    const text = document.getElementById("x0")!;
    expect(text.textContent).toContain("1 </script><script>document.title='owned'</script> <!-- <b>bold</b>");
    expect(unsafeParts(text)).toEqual([]);
    expect(document.title).toBe("h: citation targets");
    expect(JSON.parse(jsonForScript(markdown))).toBe(markdown);
  });

  test("a rendered text keeps sup, sub, br, footnotes and tables; every other tag, attribute and URL stays inert", async () => {
    const file = join(dir, "hostile-texts.jsonl");
    const record = (address: string, markdown: string) => ({
      citationAddress: address,
      targetKind: "markdown-artifact",
      headingText: "Art. 1 Zweck",
      headingTrail: [],
      artifactRelativePath: "a.md",
      markdown,
      slug: "h",
      name: "Hostile Act",
    });
    await writeFile(file, `${JSON.stringify(record("h/a.md#art-1", HOSTILE_MARKDOWN))}\n`);
    const result = await run(["view", file], dir);
    expect(result.code).toBe(0);
    const dom = loadPage(result.stdout);
    const document = dom.window.document;
    document.querySelector<HTMLButtonElement>("button.tx")!.click();
    const text = document.getElementById("x0")!;
    expect(unsafeParts(text)).toEqual([]);
    expect(document.title).toBe("Hostile Act: citation targets");
    // What is kept: the bold heading, sup and sub without their attributes, one br, the footnote, the table.
    expect(text.querySelector(".mh")!.textContent).toContain("Art. 1 Zweck <script>document.title='owned'</script>");
    expect(Array.from(text.querySelectorAll("sup:not(.footnote-ref)")).map((e) => e.outerHTML)).toEqual([]);
    expect(text.querySelectorAll("br")).toHaveLength(0);
    expect(text.textContent).toContain("<sup onclick=\"document.title='owned'\">1</sup> attributes are not kept");
    expect(text.textContent).toContain("<img src=x onerror=");
    expect(text.textContent).toContain("an unclosed <sup>superscript and an unclosed <b>bold");
    expect(text.textContent).toContain("a stray </sup> and </div></div></main>");
    expect(text.querySelector("td")!.getAttribute("colspan")).toBe("2");
    expect(text.querySelector(".footnotes li")!.textContent).toContain("A footnote <script>");
    // A markdown image is a link to its URL (the page loads nothing); no javascript:, data: or vbscript: link.
    expect(Array.from(text.querySelectorAll("a")).map((a) => a.getAttribute("href"))).toEqual([
      "https://example.org/x.png",
      "#fn-t0-1",
      "#fnref-t0-1",
    ]);
    // The override is closed inside its own text run (FSI … PDI): it cannot reverse what follows.
    const reversed = Array.from(text.querySelectorAll("p")).find((p) => p.textContent!.includes("reversed"))!;
    expect(reversed.textContent).toMatch(/\u2068[^\u2069]*\u202eright-to-left\u2069/);
    // Nothing escaped the text's element: the page after it is the page's.
    expect(document.querySelector("footer")!.parentElement).toBe(document.body);
    expect(text.closest("li")!.getAttribute("data-i")).toBe("0");
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("a note whose reference is in another unit's text is shown (its amendment is seen); a reference without its note shows its label", async () => {
    // A units dataset: § 1's note follows its last Absatz, while its reference stands in Abs. 1.
    expect(renderMarkdown("(2) Zweiter Absatz.\n\n[^1]: Geändert durch G v. 1.1.2020.\n", "b")).toBe(
      '<p>(2) Zweiter Absatz.</p>\n<div class="footnotes"><ol class="footnotes-list">\n<li id="fn-b-1" class="footnote-item"><span class="fn-label">1</span> <p>Geändert durch G v. 1.1.2020.</p>\n</li>\n</ol></div>\n',
    );
    expect(renderMarkdown("(1) Erster Absatz.[^1]\n", "a")).toBe(
      '<p>(1) Erster Absatz.<sup class="footnote-ref">1</sup></p>\n',
    );
    // Referenced notes keep their links both ways; one not referenced comes after, in the text's order, with no link back.
    const both = renderMarkdown("Text[^1] und [^2].\n\n[^1]: Eins.\n\n[^3]: Drei.\n", "c");
    expect(both).toContain('<a href="#fn-c-1" id="fnref-c-1">1</a>');
    expect(both).toContain('<sup class="footnote-ref">2</sup>');
    expect(both).toContain('<span class="fn-label">3</span> <p>Drei.</p>');
    expect(both.match(/footnote-backref/g)).toHaveLength(1);
    // On the amendment page, the changed words of such a note are marked.
    const marked = markedTexts(
      "(2) Zweiter Absatz.\n\n[^1]: Geändert durch G v. 1.1.2020.\n",
      "(2) Zweiter Absatz.\n\n[^1]: Geändert durch G v. 1.1.2020 und G v. 1.1.2025.\n",
      "d",
    );
    expect(marked.after).toContain("<ins");
    expect(marked.after).toContain("2025");
  });

  test("the renderer: sup, sub and br exactly; a sup closed in order; HTML tables balanced; wrappers left out", () => {
    expect(renderMarkdown("<sup>1</sup> a<sub>2</sub><br/>b <SUP>3</SUP>", "d")).toBe(
      "<p><sup>1</sup> a<sub>2</sub><br>b &lt;SUP&gt;3&lt;/SUP&gt;</p>\n",
    );
    expect(renderMarkdown("<sup><sub>x</sup></sub>", "d")).toBe("<p>&lt;sup&gt;<sub>x&lt;/sup&gt;</sub></p>\n");
    expect(renderMarkdown('<div class="jnnorm">\n\n(1) Text\n\n</div>\n', "d")).toBe("<p>(1) Text</p>\n");
    expect(renderMarkdown("<table>\n<tr><td class=x>a<div>b\n", "d")).toBe("<table>\n<tr><td>ab\n</td></tr></table>\n");
    expect(renderMarkdown("a[^1]\n\n[^1]: note\n", "d")).toBe(
      '<p>a<sup class="footnote-ref"><a href="#fn-d-1" id="fnref-d-1">1</a></sup></p>\n' +
        '<div class="footnotes"><ol class="footnotes-list">\n<li id="fn-d-1" class="footnote-item"><span class="fn-label">1</span> <p>note <a href="#fnref-d-1" class="footnote-backref">↩︎</a></p>\n</li>\n</ol></div>\n',
    );
  });

  test("the renderer's caps (issue 32, item 7): a text past one is shown as written, escaped, with the reason; below them it renders", () => {
    // Their reason, or "rendered" (booleans and short strings: a failure does not print megabytes).
    const shown = (html: string) =>
      /^<p class="muted">Shown as written, not rendered: ([^<]*)<\/p>\n<pre>/.exec(html)?.[1] ?? "rendered";
    // 2,000 nested > (markdown-it nests 100 deep) over 30,000 lines: 3 million lines of nested quotes (over 300,000
    // lines, a page took 1.8 GB and 22 s).
    const nested = renderMarkdown(`${">".repeat(2000)} a\n${"b\n".repeat(30_000)}`, "d");
    expect(shown(nested)).toBe("block quotes nested in one another over more than 2000000 lines in all.");
    expect(nested.includes("<pre>&gt;&gt;&gt;")).toBe(true);
    expect(shown(renderMarkdown(`${">".repeat(10)} a\n${"b\n".repeat(30_000)}`, "d"))).toBe("rendered");
    // A paragraph of more than 2^18 characters (a token per emphasis marker while they are paired).
    expect(shown(renderMarkdown("*a ".repeat(2 ** 18 / 3 + 1), "d"))).toBe(
      "a paragraph of more than 262144 characters.",
    );
    expect(shown(renderMarkdown("*a ".repeat(2 ** 16), "d"))).toBe("rendered");
    // A reference link's address written again at every use: 100 KB used 5,000 times (3.5 GB and 84 s for a page).
    expect(shown(renderMarkdown(`[a]: /${"x".repeat(100_000)}\n\n${"[a] ".repeat(5000)}\n`, "d"))).toBe(
      "links whose addresses and titles add up to more than 1048576 characters.",
    );
    expect(shown(renderMarkdown(`[a]: /${"x".repeat(100)}\n\n${"[a] ".repeat(5000)}\n`, "d"))).toBe("rendered");
    // A text of more than 2^20 characters; the marks of changed words stay in one shown as written.
    const long = "Text des Absatzes.\n\n".repeat(2 ** 20 / 20 + 1);
    expect(shown(renderMarkdown(long, "d"))).toBe("a text of more than 1048576 characters.");
    const marked = markedTexts(`${long}alt`, `${long}neu`, "d");
    expect([marked.before.includes("<del>alt</del>"), marked.after.includes("<ins>neu</ins>")]).toEqual([true, true]);
    expect(shown(marked.after)).toBe("a text of more than 1048576 characters.");
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
    // First the changes that fail the gate, by dataset, each dataset headed by its law's name and titleId, its file
    // under them.
    const failing = Array.from(document.querySelectorAll("#failing section.pair"));
    expect(failing.map((s) => s.getAttribute("data-file"))).toEqual([
      ".tooling/citation-targets/mvfg.jsonl",
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    expect(failing.map((s) => s.querySelector("h3")!.textContent)).toEqual([
      "Musterverfahrensgesetz BJNR012530976",
      "Privacy Act 1988 C2004A03712",
    ]);
    expect(failing[0]!.querySelector(".pair-note code")!.textContent).toBe(".tooling/citation-targets/mvfg.jsonl");
    const failingChanges = Array.from(document.querySelectorAll("#failing .change"));
    expect(failingChanges).toHaveLength(7);
    expect(failingChanges.every((c) => c.classList.contains("error"))).toBe(true);
    // Nothing but the verdict, the counts and the legend comes before them.
    expect(document.querySelector("main h2")!.id).toBe("failing-h");
    // Then the other changes of each dataset: the privacy act's approved repeal and its additions.
    const others = Array.from(document.querySelectorAll("#failing ~ section.pair"));
    expect(others.map((s) => s.getAttribute("data-file"))).toEqual([
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    const privacy = others[0]!;
    expect(privacy.querySelector(".pair-note")!.textContent).toContain("(and 6 changes failing the gate, above)");
    const classes = Array.from(privacy.querySelectorAll(".change")).map((c) => c.getAttribute("data-class"));
    expect(classes).toEqual(["breaking", ...Array(5).fill("additive")]);
    // The text of section 1, old and new side by side, rendered: the added sentence marked in the new text.
    const s1 = document.querySelector('[data-address="privacy-act-1988/part-i/section-1.md#1"]')!;
    expect(s1.querySelector(".side.old .mh")!.textContent).toBe("1 Short title");
    expect(s1.querySelector(".side.old em")!.textContent).toBe("Privacy Act 1988");
    expect(Array.from(s1.querySelectorAll(".side.new ins")).map((e) => e.textContent)).toEqual([AMENDED_SENTENCE]);
    expect(s1.querySelectorAll("del, .side.old ins")).toHaveLength(0);
    // Section 6: the heading words replaced, marked in the rendered heading on each side; its table rendered.
    const s6 = document.querySelector('[data-address="privacy-act-1988/part-i/section-6.md#6"]')!;
    expect(Array.from(s6.querySelectorAll(".side.old del")).map((e) => e.textContent)).toEqual(["Interpretation"]);
    expect(Array.from(s6.querySelectorAll(".side.new ins")).map((e) => e.textContent)).toEqual([
      "Definitions and interpretation",
    ]);
    expect(s6.querySelector(".side.new .mh ins")).not.toBeNull();
    expect(s6.querySelectorAll(".side table")).toHaveLength(2);
    expect(s6.querySelector(".details")!.textContent).toContain(
      'headingText: "6 Interpretation" → "6 Definitions and interpretation"',
    );
    // The German code: one word of § 1 replaced; the wrapper <div> of its text is not shown.
    const p1 = failing[0]!.querySelector('[data-address="mvfg/mvfg.md#§-1"]')!;
    expect(Array.from(p1.querySelectorAll("del")).map((e) => e.textContent)).toEqual(["Musterbehörden"]);
    expect(Array.from(p1.querySelectorAll("ins")).map((e) => e.textContent)).toEqual([MVFG_NEW_WORDS]);
    expect(p1.querySelector(".synopsis")!.textContent).not.toContain("jnnorm");
    // A section added: its text, on the new side.
    const s7 = privacy.querySelector('[data-address="privacy-act-1988/part-i/section-7.md#7"]')!;
    expect(s7.querySelector(".side.new .mh")!.textContent).toBe("7 Acts and practices of agencies");
    expect(s7.querySelector(".side.old")!.textContent).toContain("Not in the old version.");
    // The approval that applies: one row per entry, with the number of changes it covers.
    const approvals = document.querySelector('table[aria-labelledby="approvals"]')!;
    expect(Array.from(approvals.querySelectorAll("tbody td")).map((td) => td.textContent)).toEqual([
      "privacy-act-1988/part-iii/division-1/section-13a.md#13a",
      "Section 13A repealed by Act No. 1, 2025",
      "1",
    ]);
    const repealed = privacy.querySelector('[data-address="privacy-act-1988/part-iii/division-1/section-13a.md#13a"]')!;
    expect(repealed.querySelector("h4")!.textContent).toContain("approved");
    expect(repealed.classList.contains("warning")).toBe(true);
    expect(repealed.querySelector(".side.old")!.textContent).toContain("13A");
    // A move, named.
    const moved = document.querySelector(
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
    expect(document.getElementById("failing")).toBeNull();
    expect(Array.from(document.querySelectorAll("section.pair")).map((s) => s.getAttribute("data-file"))).toEqual([
      "current/mvfg.jsonl",
    ]);
    expect(document.querySelector("section.pair h3")!.textContent).toBe("Musterverfahrensgesetz BJNR012530976");
    expect(document.querySelector("main")!.textContent).toContain("1 other pair compared: no changes.");
    expect(document.querySelector('[data-address="mvfg/mvfg.md#§-1"] ins')!.textContent).toBe(MVFG_NEW_WORDS);
    // A kind-wide entry: one row, its count.
    expect(
      Array.from(document.querySelectorAll('table[aria-labelledby="approvals"] tbody td')).map((td) => td.textContent),
    ).toEqual(["kind record-changed", "§ 1 amended", "1"]);
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("hostile texts in an amendment stay inert on both sides; the marks stay inside the texts", async () => {
    const record = (markdown: string) => ({
      citationAddress: "h/a.md#art-1",
      targetKind: "markdown-artifact",
      headingText: "Art. 1",
      headingTrail: [],
      artifactRelativePath: "a.md",
      markdown,
      slug: "h",
      name: "Hostile Act",
      titleId: "H-1",
    });
    await mkdir(join(dir, "hostile-old"), { recursive: true });
    await mkdir(join(dir, "hostile-new"), { recursive: true });
    await writeFile(join(dir, "hostile-old/h.jsonl"), `${JSON.stringify(record("Art. 1 plain text.\n"))}\n`);
    await writeFile(
      join(dir, "hostile-new/h.jsonl"),
      `${JSON.stringify(record(`Art. 1 plain text.\n\n${HOSTILE_MARKDOWN}`))}\n`,
    );
    const result = await run(["diff", "hostile-old/h.jsonl", "hostile-new/h.jsonl", "--format", "html"], dir);
    expect(result.code).toBe(1);
    const dom = loadPage(result.stdout);
    const document = dom.window.document;
    expect(document.title).toMatch(/^citation-targets diff: fails/);
    const change = document.querySelector('[data-address="h/a.md#art-1"]')!;
    expect(change.closest("#failing")).not.toBeNull();
    expect(document.querySelector("#failing h3")!.textContent).toBe("Hostile Act H-1");
    for (const side of Array.from(change.querySelectorAll(".side .md"))) expect(unsafeParts(side)).toEqual([]);
    expect(change.querySelector(".side.new")!.textContent).toContain("<script>document.title='owned'</script>");
    expect(change.querySelectorAll(".side.new ins").length).toBeGreaterThan(5);
    // The page after the texts is the page's own.
    expect(document.querySelector("footer")!.parentElement).toBe(document.body);
    expect(document.querySelectorAll("script:not([type])")).toHaveLength(0);
    expect(await axeViolations(dom)).toEqual([]);
  });

  test("changed words are marked on the markdown, then rendered: balanced tags, block markers kept, markup escaped", () => {
    const { before, after, wordByWord } = markedTexts(
      "##### **Art. 1** Zweck\n\n<sup>1</sup> a <b> c\n\n- eins\n",
      "##### **Art. 1a** Zweck\n\n<sup>1</sup> a <i> c d\n\n- eins\n- zwei und drei\n\n| x |\n|---|\n| y |\n",
      "c",
    );
    expect(wordByWord).toBe(true);
    expect(before).toBe(
      '<p class="mh mh5"><strong>Art. <del>1</del></strong> Zweck</p>\n<p><sup>1</sup> a &lt;<del>b</del>&gt; c</p>\n<ul>\n<li>eins</li>\n</ul>\n',
    );
    expect(after).toBe(
      '<p class="mh mh5"><strong>Art. <ins>1a</ins></strong> Zweck</p>\n<p><sup>1</sup> a &lt;<ins>i</ins>&gt; c <ins>d</ins></p>\n' +
        "<ul>\n<li>eins</li>\n<li><ins>zwei und drei</ins></li>\n</ul>\n<table>\n<thead>\n<tr>\n<th><ins>x</ins></th>\n</tr>\n</thead>\n" +
        "<tbody>\n<tr>\n<td><ins>y</ins></td>\n</tr>\n</tbody>\n</table>\n",
    );
    // A mark across paragraphs is cut at each element: every <ins> is closed inside the element it opened in.
    const across = markedTexts("a\n", "a b\n\nc <sup>2</sup> d\n\n> e\n", "c").after;
    expect(across).toBe(
      "<p>a <ins>b</ins></p>\n<p><ins>c </ins><sup><ins>2</ins></sup><ins> d</ins></p>\n<blockquote>\n<p><ins>e</ins></p>\n</blockquote>\n",
    );
    // The sentinel characters in a text are not taken for marks.
    expect(markedTexts("x \uE000y\uE001", "x \uE000y\uE001 z", "c").after).toBe(
      "<p>x \uFFFDy\uFFFD <ins>z</ins></p>\n",
    );
    // Rewritten from end to end: each side marked whole.
    const old = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    const rewritten = Array.from({ length: 3000 }, (_, i) => `v${i}`).join(" ");
    const whole = markedTexts(old, rewritten, "c");
    expect(whole).toEqual({
      before: `<p><del>${old}</del></p>\n`,
      after: `<p><ins>${rewritten}</ins></p>\n`,
      wordByWord: false,
    });
  });

  test("a page's word comparisons are capped (issue 32, item 7): each pair brings 64 a token and spends the comparisons it makes; one that passes what is left is marked whole, saying so", () => {
    // Under MAX_EDIT_LENGTH alone, jsdiff may compare up to 2,000 pairs of tokens a token.
    const words = (n: number, changed: number) =>
      Array.from({ length: n }, (_, i) => (i >= n - changed ? "b" : "a")).join(" ");
    /** The comparisons jsdiff makes for a pair, counted through its own option (the tokens as markedTexts cuts them). */
    const comparisons = (before: string, after: string) => {
      const cut = (text: string) => text.match(/\s+|[^\s]+/g)!;
      let count = 0;
      diffArrays(cut(before), cut(after), {
        maxEditLength: MAX_EDIT_LENGTH,
        comparator: (a: string, b: string) => ++count > 0 && a === b,
      });
      return count;
    };
    const budget = { steps: 0 };
    // 199 tokens a side (100 words, 99 spaces), 3 words changed.
    const few = comparisons(words(100, 0), words(100, 3));
    const first = markedTexts(words(100, 0), words(100, 3), "c", budget);
    expect(first.wordByWord).toBe(true);
    expect(first.after).toBe(`<p>${words(97, 0)} <ins>b</ins> <ins>b</ins> <ins>b</ins></p>\n`);
    expect(budget.steps).toBe(398 * 64 - few);
    // 180 of 200 words changed: more comparisons than 64 a token (798), paid from what the first left.
    const many = comparisons(words(200, 0), words(200, 180));
    expect(many).toBeGreaterThan(798 * 64);
    expect(many).toBeLessThan(798 * 64 + 398 * 64 - few);
    expect(markedTexts(words(200, 0), words(200, 180), "c", budget).wordByWord).toBe(true);
    expect(budget.steps).toBe(398 * 64 - few + 798 * 64 - many);
    // 300 of 400 words: more than is left. Marked whole, as spent, and nothing left.
    expect(comparisons(words(400, 0), words(400, 300))).toBeGreaterThan(budget.steps + 1598 * 64);
    const spent = markedTexts(words(400, 0), words(400, 300), "c", budget);
    expect(spent).toMatchObject({ wordByWord: false, spent: true, after: `<p><ins>${words(400, 300)}</ins></p>\n` });
    expect(budget.steps).toBe(0);
    // Without a budget (a caller of its own), only MAX_EDIT_LENGTH holds.
    expect(markedTexts(words(400, 0), words(400, 300), "c").wordByWord).toBe(true);
    // A pair that differs in more than MAX_EDIT_LENGTH with room to spare is a rewrite, not spent.
    const rewrite = markedTexts(words(3000, 0), words(3000, 2500), "c", { steps: 10 ** 9 });
    expect(rewrite.wordByWord).toBe(false);
    expect(rewrite.spent).toBeUndefined();
  });
});
