/**
 * A target's markdown as HTML for the two pages (docs/spec.md, section 17, "Rendered text"), and
 * the old and new text of a changed target with the changed words marked.
 *
 * markdown-it (CommonMark, with its tables) renders the text, with what legislation needs and
 * nothing more: footnote references and definitions (markdown-it-footnote, labels shown as the
 * text writes them), and the inline tags `<sup>`, `<sub>` and `<br>`, exactly so written (no
 * attribute), each `<sup>`/`<sub>` with its own closing tag. Every other piece of HTML in a text is
 * shown as the characters it is: markdown-it reads raw HTML (`html: true`) only so that the allow-list
 * can keep those tags; the rest is escaped. Images are off (a page fetches nothing), links keep
 * markdown-it's check of their URL (no `javascript:`, `vbscript:`, `file:` or `data:`), and a
 * heading of the text is a bold paragraph, not a heading of the page. Text runs that hold
 * directional controls are isolated as everywhere on the pages.
 *
 * Changed words are marked on the markdown before it is rendered: the two texts are cut into words,
 * spaces, punctuation and the few markup tokens above (jsdiff's `diffArrays` compares them), the
 * changed runs are put between two private-use characters that markdown-it passes through as
 * text, never before the block markers a line starts with (`#`, `-`, `1.`, `>`, `|`, `[^1]:`), and
 * after rendering each marked run becomes `<del>` or `<ins>` in each text node it spans: a mark
 * never crosses an element, so the tags are always balanced.
 */
import { diffArrays } from "diff";
import MarkdownIt from "markdown-it";
import type { MarkdownIt as Md, StateCore, StateInline, Token as Tok } from "markdown-it";
import footnote from "markdown-it-footnote";
import { escapeHtml } from "./html-common.js";
import { MAX_NESTED_QUOTE_LINES } from "../core/markdown/limits.js";
import { guardNestedQuotes } from "../core/markdown/quote-guard.js";

/** The tags a text may hold, as written: `<sup>`, `</sup>`, `<sub>`, `</sub>`, `<br>` (also `<br/>`, `<br />`). */
const PAIRED = /^<(\/?)(sup|sub)>$/;
const BREAK = /^<br\s*\/?>$/;

/**
 * Decides, for each inline HTML token, whether it is kept: `<br>`, and a `<sup>` or `<sub>` with its
 * own closing tag in the same paragraph, properly nested. Every other token becomes text.
 */
function allowListedTags(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== "inline" || block.children === null) continue;
    const open: Tok[] = [];
    for (const token of block.children) {
      if (token.type !== "html_inline") continue;
      token.type = "text";
      if (BREAK.test(token.content)) {
        token.type = "html_inline";
        token.content = "<br>";
        continue;
      }
      const paired = PAIRED.exec(token.content);
      if (paired === null) continue;
      if (paired[1] === "") {
        open.push(token);
      } else if (open.length > 0 && open[open.length - 1]!.content === `<${paired[2]}>`) {
        open.pop()!.type = "html_inline";
        token.type = "html_inline";
      }
    }
  }
}

/** Tables written in HTML, as German and Swiss texts hold them: the elements kept, with where each may stand. */
const TABLE_PARENTS: Record<string, readonly string[] | undefined> = {
  table: undefined,
  thead: ["table"],
  tbody: ["table"],
  tfoot: ["table"],
  tr: ["table", "thead", "tbody", "tfoot"],
  th: ["tr"],
  td: ["tr"],
  sup: undefined,
  sub: undefined,
};

/** Wrappers the texts put around a provision (`<div class="jnnorm" id="…">`): their tags are left out, their text kept. */
const WRAPPERS = new Set(["div", "span"]);

/**
 * A block of raw HTML (docs/spec.md, section 17): the tags of a table (`table`, `thead`, `tbody`, `tfoot`, `tr`, `th`,
 * `td`, with no attribute but a number `colspan` or `rowspan`), `sup`, `sub` and `br` are kept where they may stand and
 * closed in order, so that the block is balanced whatever it holds; the tags of a wrapper (`div`, `span`) are left
 * out; every other tag, and all text, is shown as the characters it is.
 */
function htmlBlock(content: string): string {
  const open: string[] = [];
  let out = "";
  for (const piece of content.split(/(<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?>)/)) {
    const tag = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)(\s[^<>]*)?>$/.exec(piece);
    if (tag === null) {
      out += escapeHtml(piece);
      continue;
    }
    const name = tag[2]!.toLowerCase();
    if (WRAPPERS.has(name)) continue;
    if (name === "br" && tag[1] === "") {
      out += "<br>";
      continue;
    }
    if (!(name in TABLE_PARENTS)) {
      out += escapeHtml(piece);
      continue;
    }
    if (tag[1] === "/") {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    const parents = TABLE_PARENTS[name];
    if (parents !== undefined && !parents.includes(open[open.length - 1] ?? "")) continue;
    const spans = [...(tag[3] ?? "").matchAll(/\b(colspan|rowspan)\s*=\s*"?([1-9][0-9]{0,2})"?/gi)]
      .map((m) => ` ${m[1]!.toLowerCase()}="${m[2]}"`)
      .join("");
    out += `<${name}${name === "td" || name === "th" ? spans : ""}>`;
    open.push(name);
  }
  while (open.length > 0) out += `</${open.pop()}>`;
  return out.trim() === "" ? "" : `${out.replace(/\n+$/, "")}\n`;
}

function createRenderer(): Md {
  const md = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
  md.disable(["image"]);
  md.use(footnote);
  // A note whose reference is in another target's text (a units dataset: the notes of a section follow its last
  // Absatz), and a reference whose note is in another's: the note is shown all the same (an amendment of it would be
  // invisible otherwise), the reference as its label (not as `[^1]`).
  md.core.ruler.before("footnote_tail", "citation_targets_unreferenced_notes", keepUnreferencedNotes);
  md.inline.ruler.after("footnote_ref", "citation_targets_orphan_reference", orphanReference);
  md.core.ruler.push("citation_targets_allow_list", allowListedTags);
  md.core.ruler.before("inline", "citation_targets_inline_cap", capInline);
  // Nested quotes' lines capped as the generator's parser caps them (quote-guard.ts).
  guardNestedQuotes(md, () => {
    throw new RenderCap(`block quotes nested in one another over more than ${MAX_NESTED_QUOTE_LINES} lines in all`);
  });
  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeHtml(tokens[idx]!.content);
  rules.code_inline = (tokens, idx) => `<code>${escapeHtml(tokens[idx]!.content)}</code>`;
  rules.html_block = (tokens, idx) => htmlBlock(tokens[idx]!.content);
  rules.heading_open = (tokens, idx) => `<p class="mh mh${tokens[idx]!.tag.slice(1)}">`;
  rules.heading_close = () => "</p>\n";
  const link = rules.link_open;
  rules.link_open = (tokens, idx, options, env, self) => {
    // A reference link's address and title are written again at every use: capped in all, or 100 KB of address used
    // 5,000 times would make 500 MB of page.
    const held = env as { linkChars?: number };
    const token = tokens[idx]!;
    held.linkChars =
      (held.linkChars ?? 0) + String(token.attrGet("href") ?? "").length + String(token.attrGet("title") ?? "").length;
    if (held.linkChars > MAX_LINK_CHARS)
      throw new RenderCap(`links whose addresses and titles add up to more than ${MAX_LINK_CHARS} characters`);
    tokens[idx]!.attrSet("rel", "noopener noreferrer nofollow");
    return link !== undefined ? link(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  // Footnotes keep the label the text gives them ([^2] shows as 2), and one list without numbers of its own.
  rules.footnote_caption = (tokens, idx) => {
    const meta = tokens[idx]!.meta as { id: number; label?: string };
    return escapeHtml(meta.label ?? String(meta.id + 1));
  };
  rules.citation_targets_orphan_reference = (tokens, idx) =>
    `<sup class="footnote-ref">${escapeHtml(tokens[idx]!.content)}</sup>`;
  const anchor = rules.footnote_anchor;
  rules.footnote_anchor = (tokens, idx, options, env, self) => {
    // No link back to a reference that is not in this text.
    const notes = (env as { footnotes?: Notes }).footnotes;
    const id = (tokens[idx]!.meta as { id: number }).id;
    if (notes?.list?.[id]?.count === 0) return "";
    return anchor !== undefined ? anchor(tokens, idx, options, env, self) : "";
  };
  rules.footnote_block_open = () => '<div class="footnotes"><ol class="footnotes-list">\n';
  rules.footnote_block_close = () => "</ol></div>\n";
  rules.footnote_open = (tokens, idx, options, env, self) => {
    const meta = tokens[idx]!.meta as { id: number; label?: string; subId?: number };
    const id = self.rules.footnote_anchor_name!(tokens, idx, options, env, self);
    const label = escapeHtml(meta.label ?? String(meta.id + 1));
    return `<li id="fn${id}" class="footnote-item"><span class="fn-label">${label}</span> `;
  };
  return md;
}

/** What markdown-it-footnote keeps of a text's notes in its env: each label's place in `list` (-1: no reference yet). */
interface Notes {
  refs?: Record<string, number>;
  list?: { label?: string; count: number }[];
}

/**
 * Before the notes are put at the end: each note no reference in the text names is listed too (in the order the text
 * gives them), with no count of references, so that it is shown rather than dropped.
 */
function keepUnreferencedNotes(state: StateCore): void {
  const notes = (state.env as { footnotes?: Notes }).footnotes;
  if (notes?.refs === undefined) return;
  notes.list ??= [];
  for (const [key, place] of Object.entries(notes.refs)) {
    if (place >= 0) continue;
    notes.refs[key] = notes.list.length;
    notes.list.push({ label: key.slice(1), count: 0 });
  }
}

/** A reference `[^label]` whose note is not in the text: its label, as a reference's would show (no link). */
function orphanReference(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5e) return false; // [^
  const end = src.indexOf("]", pos + 2);
  if (end === -1 || end >= posMax) return false;
  const label = src.slice(pos + 2, end);
  if (label === "" || /[\s[\]]/.test(label)) return false;
  if (!silent) state.push("citation_targets_orphan_reference", "", 0).content = label;
  state.pos = end + 1;
  return true;
}

/**
 * The caps of a text's rendering (docs/spec.md, section 17, "Rendered text"): the pages are made in the main thread, whose
 * heap has no cap, from records anyone may have edited, so what markdown-it holds for a text is bounded as generation
 * bounds it (section 13): the text's length (about 50 bytes held per character of ordinary legal text), the length of one
 * paragraph's inline content (a token per emphasis marker while they are paired, up to about 250 bytes per character),
 * block quotes nested over many lines (depth times lines, the cap generation has), and the links' addresses and titles
 * in all (a reference link's are written again at every use). A text past one is shown as
 * written, escaped, with the reason: never a crash, never the page's memory.
 */
const MAX_RENDERED_CHARS = 2 ** 20;
const MAX_RENDERED_INLINE = 2 ** 18;
const MAX_LINK_CHARS = 2 ** 20;

/** A text past a cap of its rendering. */
class RenderCap extends Error {}

/** Before the inline parse: a paragraph (or heading, or table cell) whose inline content is longer than the cap. */
function capInline(state: StateCore): void {
  for (const token of state.tokens)
    if (token.type === "inline" && token.content.length > MAX_RENDERED_INLINE)
      throw new RenderCap(`a paragraph of more than ${MAX_RENDERED_INLINE} characters`);
}

/** A text past a cap: as written, escaped, with the reason (the marks of changed words stay in it). */
function asWritten(markdown: string, reason: string): string {
  return `<p class="muted">Shown as written, not rendered: ${escapeHtml(reason)}.</p>\n<pre>${escapeHtml(markdown)}</pre>\n`;
}

let renderer: Md | undefined;

/** The markdown as HTML, within the caps of its rendering. */
function renderBounded(markdown: string, docId: string): string {
  if (markdown.length > MAX_RENDERED_CHARS)
    return asWritten(markdown, `a text of more than ${MAX_RENDERED_CHARS} characters`);
  renderer ??= createRenderer();
  try {
    return renderer.render(markdown, { docId });
  } catch (error) {
    if (error instanceof RenderCap) return asWritten(markdown, error.message);
    throw error;
  }
}

/**
 * The markdown as HTML. `docId` makes the footnotes' element ids unique on the page (`fn-<docId>-1`), so that it
 * must be unique per text on a page.
 */
export function renderMarkdown(markdown: string, docId: string): string {
  return renderBounded(markdown.replace(SENTINELS, "\uFFFD"), docId);
}

/** The two characters a marked run is put between (U+E000, U+E001: private use, text to markdown-it). */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const SENTINELS = /[\uE000\uE001]/g;

/** The tokens two texts are compared by: the inline tags, footnote labels, runs of spaces, words, a punctuation character. */
const TOKEN = /<\/?(?:sup|sub)>|<br\s*\/?>|\[\^[^\]\s]*\]:?|\s+|[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu;

/** The block markers a line may start with, which a mark must not come before (it would end the block's syntax). */
const LINE_START =
  /^(?:[ \t]*(?:>|#{1,6}(?=[ \t]|$)|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)|\[\^[^\]\n]*\]:|\|))*[ \t]*/;

/** A line of markup only (a thematic break, a setext underline, a table's delimiter row, a code fence): never marked. */
const MARKUP_LINE = /^[\s\-=*_|:+`~]*$/;

/**
 * Edits past which two texts are not compared word by word (jsdiff's maxEditLength): the whole old text is marked
 * removed and the whole new one added. Deterministic, unlike a time limit.
 */
export const MAX_EDIT_LENGTH = 2000;

/**
 * The word comparisons one page may make, counted in comparisons of two tokens (jsdiff's `comparator`): a page may make
 * WORD_DIFF_STEPS_PER_TOKEN a token of the pairs compared so far, and WORD_DIFF_STEPS more (about 2.5 s on the machine
 * of the benches, at about 12 ns a comparison). Under MAX_EDIT_LENGTH alone the work is linear in the texts but up to
 * 2,000 comparisons a token (texts built to make every diagonal of jsdiff's search long); a pair that passes what is
 * left is marked whole, saying why. Deterministic, unlike a time limit: the comparisons are counted, and the pairs
 * compared in the page's order. 2.4 MB of text with 1,990 words swapped made 4.4 million; 300 KB with 1,999, 77 million.
 */
export const WORD_DIFF_STEPS = 200_000_000;

/** The comparisons each token of a pair compared adds to what the page may make (WORD_DIFF_STEPS). */
export const WORD_DIFF_STEPS_PER_TOKEN = 64;

/** What is left of a page's word comparisons (WORD_DIFF_STEPS), spent by markedTexts in the page's order. */
export interface WordDiffBudget {
  steps: number;
}

/** Thrown by the comparator of a pair that passes what is left of the page's comparisons. */
const SPENT = new Error("the page's word comparisons are spent");

export function wordDiffBudget(): WordDiffBudget {
  return { steps: WORD_DIFF_STEPS };
}

/** A run of the text, marked or not, joined into markdown with the marked runs between the sentinels. */
function markRuns(runs: readonly { text: string; marked: boolean }[]): string {
  let out = "";
  // Whether `out` ends a line (or is empty): kept as it grows, never asked of `out`, a rope V8 would flatten at each
  // marked run (2.4 MB of text with 1,990 runs marked took 30 s).
  let atStart = true;
  for (const { text, marked } of runs) {
    if (!marked) {
      out += text;
      if (text !== "") atStart = text.endsWith("\n");
      continue;
    }
    const lines = text.split("\n");
    lines.forEach((line, k) => {
      if (k > 0) {
        out += "\n";
        atStart = true;
      }
      const atLineStart = atStart;
      if (line !== "") atStart = false;
      if (atLineStart && MARKUP_LINE.test(line)) {
        out += line;
        return;
      }
      const prefix = atLineStart ? LINE_START.exec(line)![0] : "";
      const rest = line.slice(prefix.length);
      const core = /^(\s*)([\s\S]*?)([\s|]*)$/.exec(rest)!;
      out += prefix + core[1]! + (core[2] !== "" ? `${OPEN}${core[2]}${CLOSE}` : "") + core[3]!;
    });
  }
  return out;
}

/** Closing tags that end a block: a mark still open there (its end lost in the markup) ends with it. */
const BLOCK_END = /^<\/(?:p|li|td|th|tr|h[1-6]|blockquote|pre|ol|ul|table|div)>/;

/** Turns the sentinels of rendered HTML into `<tag>`…`</tag>` inside each text node; removes them from markup. */
function sentinelsToTags(html: string, tag: "del" | "ins"): string {
  let marked = false;
  let out = "";
  for (const piece of html.split(/(<[^>]*>)/)) {
    if (piece.startsWith("<")) {
      out += piece.replace(SENTINELS, "").replace(/%EE%80%8[01]/g, "");
      if (BLOCK_END.test(piece)) marked = false;
      continue;
    }
    let run = "";
    const flush = () => {
      if (run !== "") out += marked ? `<${tag}>${run}</${tag}>` : run;
      run = "";
    };
    for (const c of piece) {
      if (c === OPEN || c === CLOSE) {
        flush();
        marked = c === OPEN;
      } else run += c;
    }
    flush();
  }
  return out;
}

export interface MarkedTexts {
  /** The old text rendered, removed words in `<del>`. */
  before: string;
  /** The new text rendered, added words in `<ins>`. */
  after: string;
  /**
   * False when the texts were not compared word by word, each marked whole: they differ in more than MAX_EDIT_LENGTH
   * edits, or in more than the page's word comparisons left room for (`spent`).
   */
  wordByWord: boolean;
  /** The page's word comparisons (WordDiffBudget) left no room for this pair's. */
  spent?: true;
}

/**
 * The old and new markdown of a target, rendered side by side material: the changed words marked on each side. `budget`:
 * what is left of the page's word comparisons, spent here.
 */
export function markedTexts(before: string, after: string, docId: string, budget?: WordDiffBudget): MarkedTexts {
  const clean = (text: string) => text.replace(SENTINELS, "\uFFFD");
  const oldTokens = clean(before).match(TOKEN) ?? [];
  const newTokens = clean(after).match(TOKEN) ?? [];
  let parts: ReturnType<typeof diffArrays<string>> | undefined;
  let spent = false;
  if (budget === undefined) parts = diffArrays(oldTokens, newTokens, { maxEditLength: MAX_EDIT_LENGTH });
  else {
    budget.steps += WORD_DIFF_STEPS_PER_TOKEN * (oldTokens.length + newTokens.length);
    let left = budget.steps;
    const comparator = (a: string, b: string) => {
      if (--left < 0) throw SPENT;
      return a === b;
    };
    try {
      parts = diffArrays(oldTokens, newTokens, { maxEditLength: MAX_EDIT_LENGTH, comparator });
    } catch (error) {
      if (error !== SPENT) throw error;
      spent = true;
    }
    budget.steps = Math.max(0, left);
  }
  const oldRuns: { text: string; marked: boolean }[] = [];
  const newRuns: { text: string; marked: boolean }[] = [];
  if (parts === undefined) {
    oldRuns.push({ text: clean(before), marked: true });
    newRuns.push({ text: clean(after), marked: true });
  } else {
    for (const part of parts) {
      const text = part.value.join("");
      if (!part.added) oldRuns.push({ text, marked: part.removed });
      if (!part.removed) newRuns.push({ text, marked: part.added });
    }
  }
  const render = (runs: typeof oldRuns, side: string, tag: "del" | "ins") =>
    sentinelsToTags(renderBounded(markRuns(runs), `${docId}-${side}`), tag);
  return {
    before: render(oldRuns, "old", "del"),
    after: render(newRuns, "new", "ins"),
    wordByWord: parts !== undefined,
    ...(spent ? { spent: true as const } : {}),
  };
}

/** The style of a rendered text (`<div class="md">`), on both pages. */
export const MARKDOWN_STYLE = `
.md{overflow-wrap:anywhere;unicode-bidi:isolate}
.md p,.md ul,.md ol,.md blockquote,.md table{margin:.35rem 0}
.md ul,.md ol{padding-left:1.4rem}
.md .mh{font-weight:700;margin:.5rem 0 .3rem}
.md .mh1,.md .mh2{font-size:1.1em}
.md blockquote{border-left:3px solid var(--line);padding-left:.6rem;margin-left:0}
.md table{border-collapse:collapse}
.md th,.md td{border:1px solid var(--line);padding:.15rem .4rem;text-align:left;vertical-align:top}
.md pre{white-space:pre-wrap;background:#f6f6f6;padding:.3rem .5rem;border-radius:4px}
.md sup,.md sub{line-height:0}
.md .footnotes{border-top:1px solid var(--line);margin-top:.5rem;font-size:.9em}
.md .footnotes-list{list-style:none;padding-left:0}
.md .footnote-item>p{display:inline}
.md .fn-label{font-weight:600;vertical-align:super;font-size:.8em}
`;
