// The baseline of the realistic benchmark: markdown-it 15 (`commonmark` preset) parses every `*.md` of a
// dataset on one thread, and each file's bytes get a SHA-256, the least any generator must do.
//   node bench/markdown-baseline.js <datasetDir>
// Prints one JSON line: files, bytes, and what the parse found in the bodies (front matter left out
// of the counts): headings, top-level blocks, and the targets generate should cut (one per heading,
// plus one for text before the first heading).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";

const dir = process.argv[2];
const md = new MarkdownIt("commonmark");
const paths = readdirSync(dir, { recursive: true })
  .filter((p) => p.endsWith(".md") && !p.split(/[\\/]/).some((s) => s.startsWith(".") || s === "node_modules"))
  .sort();

/** Lines of the YAML front matter (micromark-extension-frontmatter: "---" on line 1 up to the next "---"). */
function frontMatterLines(text) {
  if (!/^---[ \t]*\r?\n/.test(text)) return 0;
  const lines = text.split("\n", 2000);
  for (let i = 1; i < lines.length; i++) if (/^---[ \t]*\r?$/.test(lines[i])) return i + 1;
  return 0;
}

let bytes = 0;
let headings = 0;
let blocks = 0;
let targets = 0;
const digests = createHash("sha256");
for (const path of paths) {
  const data = readFileSync(join(dir, path));
  bytes += data.length;
  digests.update(createHash("sha256").update(data).digest("hex"));
  const text = data.toString("utf8");
  const tokens = md.parse(text, {});
  const body = frontMatterLines(text);
  let fileHeadings = 0;
  let firstIsHeading;
  for (const token of tokens) {
    if (token.level !== 0 || token.nesting === -1 || !token.block || !token.map || token.map[0] < body) continue;
    blocks++;
    firstIsHeading ??= token.type === "heading_open";
    if (token.type === "heading_open") fileHeadings++;
  }
  headings += fileHeadings;
  targets += fileHeadings + (firstIsHeading ? 0 : 1);
}
console.log(JSON.stringify({ files: paths.length, bytes, headings, blocks, targets }));
