/**
 * The bundle's markdown-it makes its class fields by assignment (scripts/inline-class-fields.js, used by
 * scripts/bundle-cli.js) where the package calls Babel's `_defineProperty`: the transformed package must parse every
 * document into the same tokens as the package itself, each field of each token made alike (a data property, writable,
 * enumerable and configurable, in the same order), and the calls it cannot read as such a statement must stay.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, expect, test } from "vitest";
// @ts-expect-error a build script, plain JavaScript
import { inlineClassFields } from "../scripts/inline-class-fields.js";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const packageFile = join(dirname(createRequire(import.meta.url).resolve("markdown-it")), "markdown-it.mjs");
let folder: string;
let Transformed: typeof MarkdownIt;

beforeAll(async () => {
  // Inside the project, so that the package's own imports (entities, linkify-it, ...) resolve as they do for it.
  folder = mkdtempSync(join(root, "node_modules", ".inline-class-fields-"));
  const { code, replaced } = inlineClassFields(readFileSync(packageFile, "utf8")) as { code: string; replaced: number };
  expect(replaced).toBeGreaterThanOrEqual(40);
  const file = join(folder, "markdown-it.mjs");
  writeFileSync(file, code);
  Transformed = (await import(pathToFileURL(file).href)).default;
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Each token's own properties, in order, with their descriptors (children's too). */
function shapes(tokens: readonly object[]): unknown[] {
  return tokens.map((token) => {
    const described = Object.entries(Object.getOwnPropertyDescriptors(token)).map(([name, d]) => [
      name,
      d.writable,
      d.enumerable,
      d.configurable,
      "get" in d,
    ]);
    const children = (token as { children?: object[] | null }).children;
    return [described, children ? shapes(children) : null];
  });
}

function sameParse(text: string): void {
  const mine = new Transformed("commonmark").parse(text, {});
  const theirs = new MarkdownIt("commonmark").parse(text, {});
  expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
  expect(shapes(mine)).toEqual(shapes(theirs));
  expect(new Transformed("commonmark").render(text)).toBe(new MarkdownIt("commonmark").render(text));
}

test("the transformed package's classes make their fields by assignment; the static members stay calls", () => {
  const { code } = inlineClassFields(readFileSync(packageFile, "utf8")) as { code: string };
  expect(code).toMatch(/var Token = class \{\s*constructor\(type, tag, nesting\) \{\s*this\.map = null;/);
  expect(code).toContain('_defineProperty(MarkdownIt, "Token", Token);');
  expect(code).not.toMatch(/_defineProperty\(\s*this,/);
});

test("the same tokens and HTML as the package for the example datasets' markdown", () => {
  const files = readdirSync(join(root, "fixtures"), { recursive: true, encoding: "utf8" }).filter((name) =>
    name.endsWith(".md"),
  );
  expect(files.length).toBeGreaterThan(10);
  for (const name of files) sameParse(readFileSync(join(root, "fixtures", name), "utf8"));
});

test("the same tokens for documents of legislation's blocks in any order", () => {
  const line = fc.constantFrom(
    "# § 1 Anwendungsbereich",
    "## Part 2—Interpretation",
    "Heading text",
    "===",
    "---",
    "(1) Dieses Gesetz gilt für *alle* Verträge.",
    "1. Nummer eins",
    "   a) Buchstabe a",
    "- item with [a link](https://example.org/x) and `code`",
    "> quoted **text**",
    "> > nested quote",
    "| Spalte | Wert |",
    "|---|---:|",
    "| a | 1 |",
    "```",
    "    indented code",
    "<!-- a comment -->",
    "<div>html block</div>",
    "Text with a footnote[^1] and a hard break  ",
    "",
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
      sameParse(lines.join("\n"));
    }),
    { numRuns: 200 },
  );
});

test("a call it cannot read as a field statement is kept as it is", () => {
  const source = [
    "function _defineProperty(e, r, t) { return e; }",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal with a substitution
    'class A { constructor(k) { _defineProperty(this, k, 1); _defineProperty(this, "x", `${k}`); } }',
    'const b = _defineProperty(this, "y", 2);',
    'if (a) other._defineProperty(this, "z", 3);',
    'class C { constructor() { /* a */ _defineProperty(this, /* b */ "w", [1, (2)]); } }',
  ].join("\n");
  const { code, replaced } = inlineClassFields(source) as { code: string; replaced: number };
  expect(replaced).toBe(1);
  expect(code.split("\n").slice(0, 4)).toEqual(source.split("\n").slice(0, 4));
  expect(code.split("\n")[4]).toBe("class C { constructor() { /* a */ this.w = [1, (2)]; } }");
});
