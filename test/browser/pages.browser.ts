/**
 * Issues 24 and 35, in a real browser (`npm run test:browser`, not part of `npm test`): both HTML
 * pages opened in Debian's Chromium, driven by playwright-core through its executable path (the
 * full playwright package would download a browser of its own). Every request that is not the page
 * itself is refused and recorded: the pages must need none. A search in the texts, a rendered text
 * expanded, the old and new texts side by side with the changed words marked, and the page of a
 * 900-change amendment (the failing changes first, one approvals row per entry) are checked as the
 * browser lays them out; hostile texts run no script (no dialog, no title changed, no request);
 * axe-core's WCAG 2.1 AA rules run in the page (colour contrast included, which needs layout); and
 * the screenshots the README shows are saved to docs/images/.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeLongAmendment } from "../../bench/long-amendment.js";
import { main } from "../../src/cli/main.js";
import { generate } from "../../src/node/generate/generate.js";
import { lock } from "../../src/node/dataset/lock.js";
import { amendedRepository } from "../helpers/amended-repository.js";
import { tempDir } from "../helpers/datasets.js";
import { WCAG_TAGS } from "../helpers/dom.js";
import { ALLOWED_ELEMENTS, HOSTILE_MARKDOWN } from "../helpers/hostile-markdown.js";
import { repoRoot } from "../helpers/records.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const images = join(repoRoot, "docs/images");
const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let dir: string;
let cleanup: () => Promise<void>;
let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  ({ dir, cleanup } = await tempDir());
  await mkdir(images, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await cleanup?.();
});

async function run(argv: string[], cwd: string): Promise<number> {
  return main({ argv, cwd, env: {}, stdout: { write: () => true }, stderr: { write: () => true } });
}

/**
 * Opens a page file; resolves with the page, the requests it made beyond its own file (refused) and the dialogs a
 * script opened (dismissed: a hostile text's alert would be one).
 */
async function open(file: string): Promise<{ page: Page; requests: string[]; dialogs: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const dialogs: string[] = [];
  await page.route("**/*", (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url, { waitUntil: "load" });
  expect(errors).toEqual([]);
  return { page, requests, dialogs };
}

/** What is not allowed in the rendered texts under `selector`, as the browser built them (see unsafeParts). */
async function unsafeInBrowser(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    ({ selector, allowed }) => {
      const found: string[] = [];
      for (const root of Array.from(document.querySelectorAll(selector)))
        for (const element of Array.from(root.querySelectorAll("*"))) {
          if (!allowed.includes(element.tagName)) found.push(`<${element.tagName.toLowerCase()}>`);
          for (const attribute of Array.from(element.attributes)) {
            const name = attribute.name.toLowerCase();
            if (name.startsWith("on") || name === "style" || name === "src")
              found.push(`${name}= on ${element.tagName}`);
            if (name === "href" && !/^(?:#|https?:)/.test(attribute.value)) found.push(`href=${attribute.value}`);
          }
        }
      return found;
    },
    { selector, allowed: [...ALLOWED_ELEMENTS] },
  );
}

async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (tags) => {
    const result = await (
      window as unknown as {
        axe: { run(c: unknown, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe.run(document, {
      runOnly: { type: "tag", values: tags },
    });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(" ")}`));
  }, WCAG_TAGS);
  return violations;
}

describe("the pages in Chromium", () => {
  test("view: tree, search, a text expanded; no request beyond the page; no axe-core violation", async () => {
    const file = join(dir, "privacy-act-1988.html");
    expect(await run(["view", ".tooling/citation-targets/privacy-act-1988.jsonl", "-o", file], repoRoot)).toBe(0);
    const { page, requests } = await open(file);
    await expect(page.locator('[data-count="targets"]').textContent()).resolves.toBe("42 targets");
    expect(await page.locator("li[data-i]:visible").count()).toBe(42);
    // A text expanded, as the reader sees it.
    const row = page.locator("li[data-i]", {
      has: page.locator(":scope > .row .addr", { hasText: /^privacy-act-1988\/part-i\/section-6\.md#6$/ }),
    });
    await row.locator(":scope > .row button.tx").click();
    await expect(row.locator(":scope > div.text").isVisible()).resolves.toBe(true);
    await expect(row.locator(":scope > div.text").textContent()).resolves.toContain(
      "In this Act, unless the contrary intention appears",
    );
    // Rendered: the heading a bold line, the defined terms bold, the table a table; no markdown left.
    await expect(row.locator(":scope > div.text .mh").textContent()).resolves.toBe("6 Interpretation");
    await expect(row.locator(":scope > div.text strong").first().textContent()).resolves.toBe("agency");
    await expect(row.locator(":scope > div.text table th").first().textContent()).resolves.toBe("Term");
    await expect(row.locator(":scope > div.text").textContent()).resolves.not.toMatch(/###|\*\*|\|---/);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(images, "view.png") });
    // A search by heading: the matches and what holds them.
    await page.fill("#q", "credit");
    await expect(page.locator("#status").textContent()).resolves.toMatch(/^[0-9]+ targets match “credit”$/);
    const hits = await page.locator("li.hit:visible").count();
    expect(hits).toBe(Number((await page.locator("#status").textContent())!.split(" ")[0]));
    expect(await page.locator("li[data-i]:visible").count()).toBeLessThan(42);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(images, "view-search.png") });
    // A search in the texts: words only a text holds.
    await page.fill("#q", "reasonably identifiable");
    await expect(page.locator("#status").textContent()).resolves.toBe("1 target matches “reasonably identifiable”");
    await expect(page.locator("li.hit:visible .addr").first().textContent()).resolves.toBe(
      "privacy-act-1988/part-i/section-6.md#6",
    );
    // A citation, read as resolve reads it: its section, not every text that holds a 6.
    await page.fill("#q", "s 6(1)(a) Privacy Act 1988");
    await expect(page.locator("#status").textContent()).resolves.toBe("1 target matches “s 6(1)(a) Privacy Act 1988”");
    await expect(page.locator("li.hit:visible .addr").first().textContent()).resolves.toBe(
      "privacy-act-1988/part-i/section-6.md#6",
    );
    expect(requests).toEqual([]);
    await page.close();
  });

  test("view: a citation of a § with no heading of its own finds what resolve finds (the range, the annex)", async () => {
    const folder = join(dir, "ranges");
    await mkdir(folder, { recursive: true });
    const record = (local: string, heading: string, file = "m.md") =>
      JSON.stringify({
        citationAddress: `m/${file}#${local}`,
        targetKind: "markdown-artifact",
        headingText: heading,
        headingTrail: [],
        artifactRelativePath: file,
        markdown: `${heading}\n`,
        slug: "m",
        name: "Gesetz über Musterverfahren",
        titleId: "MusterG",
      });
    await writeFile(
      join(folder, "m.jsonl"),
      `${[
        record("§-1", "§ 1 Anwendungsbereich"),
        record("§§-5-bis-7", "§§ 5 bis 7 (weggefallen)"),
        record("anlage-1", "Anlage 1 Gebührenverzeichnis"),
        // An annex kept as a file of its own: its § 1 is flat there.
        record("anlage-2", "Anlage 2 Muster", "anlage-2.md"),
        record("§-1", "§ 1 Form", "anlage-2.md"),
      ].join("\n")}\n`,
    );
    expect(await run(["view", "m.jsonl", "-o", "m.html"], folder)).toBe(0);
    const { page, requests } = await open(join(folder, "m.html"));
    for (const [q, address] of [
      ["§ 6", "m/m.md#§§-5-bis-7"],
      ["§ 6 Abs. 2 MusterG", "m/m.md#§§-5-bis-7"],
      ["Anlage 1", "m/m.md#anlage-1"],
      ["Anlage 1 § 9", "m/m.md#anlage-1"],
      ["§ 1 Anlage 2", "m/anlage-2.md#§-1"],
      ["§ 1 MusterG", "m/m.md#§-1"],
    ]) {
      await page.fill("#q", q!);
      await expect(page.locator("#status").textContent()).resolves.toBe(`1 target matches “${q}”`);
      await expect(page.locator("li.hit:visible .addr").first().textContent()).resolves.toBe(address);
    }
    expect(requests).toEqual([]);
    await page.close();
  });

  test("view: a link to one target scrolls to it, marks it and opens its text; no axe-core violation", async () => {
    const file = join(dir, "privacy-act-1988-link.html");
    expect(await run(["view", ".tooling/citation-targets/privacy-act-1988.jsonl", "-o", file], repoRoot)).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
    await page.goto(`${pathToFileURL(file).href}#privacy-act-1988/part-iii/division-1/section-13.md#13`, {
      waitUntil: "load",
    });
    const here = page.locator("li.here");
    await expect(here.count()).resolves.toBe(1);
    await expect(here.locator(":scope > .row .addr").textContent()).resolves.toBe(
      "privacy-act-1988/part-iii/division-1/section-13.md#13",
    );
    await expect(here.locator(":scope > div.text").isVisible()).resolves.toBe(true);
    // Scrolled to: its row at the top of the window, below the search bar.
    const box = await here.locator(":scope > .row").boundingBox();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y).toBeLessThan(200);
    expect(await axe(page)).toEqual([]);
    await page.close();
  });

  test("diff --format html: failing changes first, texts side by side, approvals; no request beyond the page; no axe-core violation", async () => {
    const repo = await amendedRepository(dir);
    expect(
      await run(
        [
          "diff",
          "--against",
          "HEAD",
          "--approvals",
          "approvals.json",
          "--format",
          "html",
          "--output-file",
          "amendment.html",
        ],
        repo,
      ),
    ).toBe(1);
    const { page, requests } = await open(join(repo, "amendment.html"));
    await expect(page.locator("[data-verdict]").textContent()).resolves.toBe(
      "✖ 7 changes fail the gate (--fail-on breaking)",
    );
    // The failing changes are the first section, each dataset headed by its law.
    await expect(page.locator("main h2").first().textContent()).resolves.toBe("Changes that fail the gate");
    await expect(page.locator("#failing h3").first().textContent()).resolves.toBe(
      "Musterverfahrensgesetz BJNR012530976",
    );
    // Section 6: old and new side by side, the replaced words marked in the rendered heading.
    const s6 = page.locator('[data-address="privacy-act-1988/part-i/section-6.md#6"]');
    await expect(s6.locator(".side.old del").first().isVisible()).resolves.toBe(true);
    await expect(s6.locator(".side.new ins").first().textContent()).resolves.toBe("Definitions and interpretation");
    const [oldBox, newBox] = await Promise.all([
      s6.locator(".side.old").boundingBox(),
      s6.locator(".side.new").boundingBox(),
    ]);
    expect(newBox!.x).toBeGreaterThan(oldBox!.x + oldBox!.width - 1); // side by side
    expect(Math.abs(newBox!.y - oldBox!.y)).toBeLessThan(1);
    await expect(page.locator('table[aria-labelledby="approvals"] tbody td').nth(1).textContent()).resolves.toBe(
      "Section 13A repealed by Act No. 1, 2025",
    );
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(images, "diff.png") });
    await s6.scrollIntoViewIfNeeded();
    await page.evaluate(() =>
      document.querySelector('[data-address="privacy-act-1988/part-i/section-6.md#6"]')!.scrollIntoView(),
    );
    await page.screenshot({ path: join(images, "diff-words.png") });
    expect(requests).toEqual([]);
    await page.close();
  });

  test("a 900-change amendment: the failing changes first, one approvals row for the kind-wide entry, one page", async () => {
    const paths = await writeLongAmendment({ dir: join(dir, "long"), lock, generate });
    const file = join(dir, "long", "amendment.html");
    expect(
      await run(
        ["diff", paths.old, paths.new, "--approvals", paths.approvals, "--format", "html", "--output-file", file],
        dir,
      ),
    ).toBe(1);
    const { page, requests } = await open(file);
    await expect(page.locator("[data-verdict]").textContent()).resolves.toBe(
      "✖ 29 changes fail the gate (--fail-on breaking)",
    );
    await expect(page.locator('[data-count="changes"] strong').textContent()).resolves.toBe("930");
    // The 29 repeals first, before the approvals and the 901 approved changes.
    await expect(page.locator("#failing .change").count()).resolves.toBe(29);
    expect(
      await page.evaluate(() => {
        const failing = document.getElementById("failing")!;
        const approvals = document.getElementById("approvals")!;
        const firstApproved = document.querySelector(".change.warning")!;
        const precedes = (a: Node, b: Node) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
        return [precedes(failing, approvals), precedes(approvals, firstApproved)];
      }),
    ).toEqual([true, true]);
    // One row for the one entry, with the number of changes it covers.
    await expect(page.locator('table[aria-labelledby="approvals"] tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('table[aria-labelledby="approvals"] tbody td').allTextContents()).resolves.toEqual([
      "kind record-changed",
      "Revised by the Federal Act of 17 March 2017 (AS 2017 1000)",
      "901",
    ]);
    // The dataset headed by its law; the texts rendered, side by side, marked.
    await expect(page.locator("#failing h3").textContent()).resolves.toBe(
      "Bundesgesetz über die Musterverwaltung SR-999.1",
    );
    const art12 = page.locator('[data-address="mvg/index.md#art-12"]');
    await art12.scrollIntoViewIfNeeded();
    await expect(art12.locator(".side.new ins").first().textContent()).resolves.toBe(
      "im Einvernehmen mit den Kantonen",
    );
    await expect(art12.locator(".side.new .footnotes .fn-label").textContent()).resolves.toBe("12");
    await expect(art12.locator(".side.old sup").first().textContent()).resolves.toBe("1");
    expect(await page.locator(".change").count()).toBe(930);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(images, "diff-long.png") });
    expect(requests).toEqual([]);
    await page.close();
  });

  test("hostile texts run nothing in either page: no dialog, no request, no element or attribute beyond the allow-list", async () => {
    const record = (markdown: string, name: string) =>
      JSON.stringify({
        citationAddress: "h/a.md#art-1",
        targetKind: "markdown-artifact",
        headingText: "Art. 1 \u202Eevil",
        headingTrail: [],
        artifactRelativePath: "a.md",
        markdown,
        slug: "h",
        name,
        titleId: "H-1",
      });
    const folder = join(dir, "hostile");
    await mkdir(join(folder, "old"), { recursive: true });
    await mkdir(join(folder, "new"), { recursive: true });
    await writeFile(join(folder, "old/h.jsonl"), `${record("Art. 1 plain.\n", "Hostile <b>Act</b>")}\n`);
    await writeFile(
      join(folder, "new/h.jsonl"),
      `${record(`Art. 1 plain.\n\n${HOSTILE_MARKDOWN}`, "Hostile <b>Act</b>")}\n`,
    );
    expect(await run(["view", "new/h.jsonl", "-o", "view.html"], folder)).toBe(0);
    expect(await run(["diff", "old/h.jsonl", "new/h.jsonl", "--format", "html", "-o", "diff.html"], folder)).toBe(1);
    for (const [name, textSelector] of [
      ["view.html", "div.text"],
      ["diff.html", ".side .md"],
    ] as const) {
      const { page, requests, dialogs } = await open(join(folder, name));
      const title = await page.title();
      if (name === "view.html") {
        await page.locator("button.tx").click();
        await page.fill("#q", "owned");
        await expect(page.locator("#status").textContent()).resolves.toBe("1 target matches “owned”");
      }
      expect(await page.title()).toBe(title);
      expect(await unsafeInBrowser(page, textSelector)).toEqual([]);
      await expect(page.locator(textSelector).last().textContent()).resolves.toContain(
        "<script>document.title='owned'</script>",
      );
      // The override in the heading and in the text ends where they end: the address after the heading reads as written.
      await expect(page.locator(".addr").first().textContent()).resolves.toBe("h/a.md#art-1");
      expect(await axe(page)).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    }
  });
});
