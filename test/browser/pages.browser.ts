/**
 * Issue 24, in a real browser (`npm run test:browser`, not part of `npm test`): both HTML pages
 * opened in Debian's Chromium, driven by playwright-core through its executable path (the full
 * playwright package would download a browser of its own). Every request that is not the page
 * itself is refused and recorded: the pages must need none. A search, a text expanded and the
 * word diff are checked as the browser lays them out; axe-core's WCAG 2.1 AA rules run in the page
 * (colour contrast included, which needs layout); and the screenshots the README shows are saved
 * to docs/images/.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { amendedRepository } from "../helpers/amended-repository.js";
import { tempDir } from "../helpers/datasets.js";
import { WCAG_TAGS } from "../helpers/dom.js";
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

/** Opens a page file; resolves with the page and the requests it made beyond its own file (refused). */
async function open(file: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  await page.route("**/*", (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url, { waitUntil: "load" });
  expect(errors).toEqual([]);
  return { page, requests };
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
    await expect(row.locator(":scope > pre.text").isVisible()).resolves.toBe(true);
    await expect(row.locator(":scope > pre.text").textContent()).resolves.toContain(
      "In this Act, unless the contrary intention appears",
    );
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
    expect(requests).toEqual([]);
    await page.close();
  });

  test("diff --format html: verdict, word diff, approvals; no request beyond the page; no axe-core violation", async () => {
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
    const s6 = page.locator('[data-address="privacy-act-1988/part-i/section-6.md#6"]');
    await expect(s6.locator("pre.wdiff del").first().isVisible()).resolves.toBe(true);
    await expect(s6.locator("pre.wdiff ins").first().textContent()).resolves.toBe("Definitions and interpretation");
    await expect(page.locator('table[aria-labelledby="approvals"] tbody td').nth(2).textContent()).resolves.toBe(
      "Section 13A repealed by Act No. 1, 2025",
    );
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(images, "diff.png") });
    await page.locator('[data-address="privacy-act-1988/part-i/section-1.md#1"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(images, "diff-words.png") });
    expect(requests).toEqual([]);
    await page.close();
  });
});
