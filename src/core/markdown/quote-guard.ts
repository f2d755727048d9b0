/**
 * The cap on block quotes nested in one another (MAX_NESTED_QUOTE_LINES; docs/spec.md, section 13), on markdown-it's
 * own block quote rule: for the generator's parser (parser.ts) and the pages' renderer (src/formatters/markdown-html.ts).
 */
import type { MarkdownIt, StateBlock } from "markdown-it";
import { MAX_NESTED_QUOTE_LINES } from "./limits.js";

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** What a guarded parse keeps on its environment: the quotes being parsed, one in another, and their lines. */
interface QuoteEnv {
  quoteDepth?: number;
  quoteLines?: number;
}

/** The quote that passes the cap: how deep it is, the lines it may span, and the line it starts on. */
export interface NestedQuote {
  depth: number;
  lines: number;
  startLine: number;
}

/**
 * Wraps markdown-it's block quote rule (it parses as before): a quote nested in another may span at most the lines of
 * the one around it (its end line is where that one ends), and markdown-it saves four numbers per line of each quote and
 * scans the lines again at each level. Those lines, added up over the quotes being parsed (the outermost's not counted),
 * are capped before the nested quote is parsed, so that depth times lines cannot fill memory or time; `refuse` throws.
 * Only a line that opens a quote counts: one indented as code, or not starting with `>`, is declined at once, as the rule
 * itself declines it. `guarded`: whether this call is one to guard (the generator's parser leaves its silent probes and
 * parses without a visitor alone). `cap`: MAX_NESTED_QUOTE_LINES, smaller in tests.
 */
export function guardNestedQuotes(
  md: MarkdownIt,
  refuse: (quote: NestedQuote, state: StateBlock) => never,
  guarded: (state: StateBlock, silent: boolean) => boolean = () => true,
  cap = MAX_NESTED_QUOTE_LINES,
): void {
  const ruler = md.block.ruler as unknown as { __rules__: { name: string; fn: BlockRule; alt: string[] }[] };
  const rule = ruler.__rules__.find((r) => r.name === "blockquote")!;
  const quote = rule.fn;
  const wrapped: BlockRule = (state, startLine, endLine, silent) => {
    if (!guarded(state, silent)) return quote(state, startLine, endLine, silent);
    if (
      state.sCount[startLine]! - state.blkIndent >= 4 ||
      state.src.charCodeAt(state.bMarks[startLine]! + state.tShift[startLine]!) !== 0x3e
    )
      return false;
    const env = state.env as QuoteEnv;
    const depth = env.quoteDepth ?? 0;
    const span = depth > 0 ? endLine - startLine : 0;
    const lines = (env.quoteLines ?? 0) + span;
    if (lines > cap) refuse({ depth: depth + 1, lines: endLine - startLine, startLine }, state);
    env.quoteDepth = depth + 1;
    env.quoteLines = lines;
    try {
      return quote(state, startLine, endLine, silent);
    } finally {
      env.quoteDepth = depth;
      env.quoteLines = lines - span;
    }
  };
  md.block.ruler.at("blockquote", wrapped, { alt: [...rule.alt] });
}
