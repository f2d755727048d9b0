/**
 * Scanners that reproduce micromark's CommonMark constructs exactly (micromark 4, CommonMark
 * 0.31.2) wherever markdown-it reads the same text differently: link labels, destinations and
 * titles, link reference definitions, raw HTML (blocks and inline), autolinks, and the character
 * classes that decide emphasis. Each one is a port of the micromark construct named in its
 * comment, state for state, so that the block boundaries and heading texts of src/core/markdown.ts
 * are micromark's (test/markdown-differential.test.ts holds the two parsers side by side).
 *
 * They work on markdown-it's normalized source (line endings are "\n", NUL is U+FFFD), between a
 * position and `max`, the end of the content, which stands for micromark's end of file.
 */

const TAB = 0x09;
const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const LEFT_PAREN = 0x28;
const RIGHT_PAREN = 0x29;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const LESS = 0x3c;
const EQUALS = 0x3d;
const GREATER = 0x3e;
const QUESTION = 0x3f;
const AT = 0x40;
const LEFT_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RIGHT_BRACKET = 0x5d;
const UNDERSCORE = 0x5f;
const GRAVE = 0x60;
const EOF = -1;

const isSpaceOrTab = (c: number) => c === SPACE || c === TAB;
const isWhitespace = (c: number) => c === SPACE || c === TAB || c === LF;
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAlphanumeric = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39);
const isControl = (c: number) => c < SPACE || c === 0x7f;
/** micromark-util-character `asciiAtext`: `[#-'*+\--9=?A-Z^-~]` (note: no `!`). */
const isAtext = (c: number) => (c >= 0x23 && c <= 0x27) || c === 0x2a || c === 0x2b || (c >= 0x2d && c <= 0x39) || c === 0x3d || c === 0x3f || (c >= 0x41 && c <= 0x5a) || (c >= 0x5e && c <= 0x7e);

const at = (src: string, pos: number, max: number) => (pos < max ? src.charCodeAt(pos) : EOF);

/** micromark-util-normalize-identifier: the key a link label is matched by. */
export function normalizeIdentifier(value: string): string {
  return value
    .replace(/[\t\n\r ]+/g, " ")
    .replace(/^ | $/g, "")
    .toLowerCase()
    .toUpperCase();
}

/** Skips spaces, tabs and line endings (micromark-factory-whitespace). */
export function skipWhitespace(src: string, pos: number, max: number): number {
  while (pos < max && isWhitespace(src.charCodeAt(pos))) pos++;
  return pos;
}

function skipSpaceOrTab(src: string, pos: number, max: number): number {
  while (pos < max && isSpaceOrTab(src.charCodeAt(pos))) pos++;
  return pos;
}

/**
 * How many micromark character codes the tab at `pos` stands for (micromark expands a tab into
 * itself and virtual spaces up to the next tab stop); matters only for the 999-code label limit.
 */
export type TabWidth = (pos: number) => number;

/** The most codes a link label may hold (micromark `linkReferenceSizeMax`). */
const LABEL_SIZE_MAX = 999;

/**
 * micromark-factory-label: `[`, then at most 999 codes holding something other than white space,
 * no unescaped `[`, then `]`. `pos` is at the `[`; returns the position after the `]`, or -1.
 */
export function scanLabel(src: string, pos: number, max: number, tabWidth: TabWidth): number {
  let size = 0;
  let seen = false;
  let p = pos + 1;
  for (;;) {
    if (p >= max) return -1;
    const c = src.charCodeAt(p);
    if (c === LEFT_BRACKET) return -1;
    if (c === RIGHT_BRACKET) return seen ? p + 1 : -1;
    p++;
    if (c === LF) continue;
    if (c === TAB) size += tabWidth(p - 1);
    else {
      size++;
      if (c !== SPACE) seen = true;
      if (c === BACKSLASH && p < max) {
        const next = src.charCodeAt(p);
        if (next === LEFT_BRACKET || next === BACKSLASH || next === RIGHT_BRACKET) {
          p++;
          size++;
        }
      }
    }
    if (size > LABEL_SIZE_MAX) return -1;
  }
}

/**
 * micromark-factory-destination: `<…>` (no line ending, no unescaped `<`) or a raw destination
 * (no white space or control character, parentheses balanced up to `limit` deep). Returns the
 * position after it, or -1.
 */
export function scanDestination(src: string, pos: number, max: number, limit: number): number {
  let p = pos;
  let c = at(src, p, max);
  if (c === LESS) {
    p++;
    for (;;) {
      c = at(src, p, max);
      if (c === GREATER) return p + 1;
      if (c === EOF || c === LESS || c === LF) return -1;
      p++;
      if (c === BACKSLASH) {
        const next = at(src, p, max);
        if (next === LESS || next === GREATER || next === BACKSLASH) p++;
      }
    }
  }
  if (c === EOF || c === SPACE || c === RIGHT_PAREN || isControl(c)) return -1;
  let balance = 0;
  for (;;) {
    c = at(src, p, max);
    if (balance === 0 && (c === EOF || c === RIGHT_PAREN || isWhitespace(c))) return p;
    if (c === LEFT_PAREN && balance < limit) {
      balance++;
      p++;
      continue;
    }
    if (c === RIGHT_PAREN) {
      balance--;
      p++;
      continue;
    }
    if (c === EOF || c === SPACE || c === LEFT_PAREN || isControl(c)) return -1;
    p++;
    if (c === BACKSLASH) {
      const next = at(src, p, max);
      if (next === LEFT_PAREN || next === RIGHT_PAREN || next === BACKSLASH) p++;
    }
  }
}

/**
 * micromark-factory-title: `"…"`, `'…'` or `(…)`, over line endings, escapes of the closing
 * marker and of `\`. Unlike the CommonMark text, micromark lets an unescaped `(` into a `(…)`
 * title. Returns the position after it, or -1.
 */
export function scanTitle(src: string, pos: number, max: number): number {
  const open = at(src, pos, max);
  if (open !== QUOTE && open !== APOSTROPHE && open !== LEFT_PAREN) return -1;
  const close = open === LEFT_PAREN ? RIGHT_PAREN : open;
  let p = pos + 1;
  for (;;) {
    const c = at(src, p, max);
    if (c === close) return p + 1;
    if (c === EOF) return -1;
    p++;
    if (c === LF) p = skipSpaceOrTab(src, p, max);
    else if (c === BACKSLASH) {
      const next = at(src, p, max);
      if (next === close || next === BACKSLASH) p++;
    }
  }
}

/** A link reference definition found by `scanDefinition`. */
export interface DefinitionScan {
  /** Where the definition ends: at the line ending (or end) of its last line. */
  end: number;
  /** Its normalized label. */
  identifier: string;
}

/**
 * micromark-core-commonmark `definition`: label, `:`, white space, destination, optionally white
 * space and a title, then only spaces and tabs to the end of the line. `pos` is at the `[`.
 */
export function scanDefinition(src: string, pos: number, max: number, tabWidth: TabWidth): DefinitionScan | undefined {
  const labelEnd = scanLabel(src, pos, max, tabWidth);
  if (labelEnd < 0 || at(src, labelEnd, max) !== COLON) return undefined;
  const identifier = normalizeIdentifier(src.slice(pos + 1, labelEnd - 1));
  const destinationEnd = scanDestination(src, skipWhitespace(src, labelEnd + 1, max), max, Number.POSITIVE_INFINITY);
  if (destinationEnd < 0) return undefined;
  if (isWhitespace(at(src, destinationEnd, max))) {
    const titleEnd = scanTitle(src, skipWhitespace(src, destinationEnd, max), max);
    if (titleEnd >= 0) {
      const end = skipSpaceOrTab(src, titleEnd, max);
      const c = at(src, end, max);
      if (c === EOF || c === LF) return { end, identifier };
    }
  }
  const end = skipSpaceOrTab(src, destinationEnd, max);
  const c = at(src, end, max);
  return c === EOF || c === LF ? { end, identifier } : undefined;
}

/**
 * The resource of an inline link or image, `(destination "title")` (micromark label-end
 * `resource`); `pos` is at the `(`. Returns the position after the `)`, or -1.
 */
export function scanResource(src: string, pos: number, max: number): number {
  let p = skipWhitespace(src, pos + 1, max);
  if (at(src, p, max) === RIGHT_PAREN) return p + 1;
  p = scanDestination(src, p, max, 32);
  if (p < 0) return -1;
  if (isWhitespace(at(src, p, max))) {
    p = skipWhitespace(src, p, max);
    const c = at(src, p, max);
    if (c === QUOTE || c === APOSTROPHE || c === LEFT_PAREN) {
      p = scanTitle(src, p, max);
      if (p < 0) return -1;
      p = skipWhitespace(src, p, max);
    }
  }
  return at(src, p, max) === RIGHT_PAREN ? p + 1 : -1;
}

/** micromark-core-commonmark `autolink`: `pos` is at the `<`; returns the position after the `>`, or -1. */
export function scanAutolink(src: string, pos: number, max: number): number {
  let p = pos + 1;
  let c = at(src, p, max);
  if (isAlpha(c)) {
    p++;
    c = at(src, p, max);
    if (c === 0x2b || c === DASH || c === DOT || isAlphanumeric(c)) {
      let size = 1;
      for (;;) {
        c = at(src, p, max);
        if (c === COLON) {
          p++;
          for (;;) {
            c = at(src, p, max);
            if (c === GREATER) return p + 1;
            if (c === EOF || c === SPACE || c === LESS || isControl(c)) return -1;
            p++;
          }
        }
        if ((c === 0x2b || c === DASH || c === DOT || isAlphanumeric(c)) && size++ < 32) {
          p++;
          continue;
        }
        break;
      }
    }
  } else if (c === AT) return -1;
  // e-mail: atext+ "@" label ("." label)* ">"
  for (;;) {
    c = at(src, p, max);
    if (c === AT) {
      p++;
      break;
    }
    if (!isAtext(c)) return -1;
    p++;
  }
  for (;;) {
    // at sign or dot: a label starts with an alphanumeric
    if (!isAlphanumeric(at(src, p, max))) return -1;
    let size = 0;
    let last = 0;
    for (;;) {
      c = at(src, p, max);
      if (last !== DASH && (c === DOT || c === GREATER)) break;
      if ((c === DASH || isAlphanumeric(c)) && size++ < 63) {
        last = c;
        p++;
        continue;
      }
      return -1;
    }
    p++;
    if (c === GREATER) return p;
  }
}

/** micromark-util-html-tag-name. */
const HTML_RAW_NAMES = new Set(["pre", "script", "style", "textarea"]);
const HTML_BLOCK_NAMES = new Set(
  "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul".split(
    " ",
  ),
);

/** The kind of a raw HTML block (the CommonMark start conditions 1 to 7), and where its end condition is looked for on its first line. */
export interface HtmlFlowStart {
  kind: number;
  /** Position on the first line after the opening (where micromark continues with the end condition). */
  after: number;
}

/**
 * micromark-core-commonmark `htmlFlow`, start: which kind of HTML block the line starting at
 * `pos` (a `<`) opens, or undefined. `max` is the end of the line. Kind 7 (a complete tag alone on
 * its line) is micromark's: an unquoted attribute value ends at `/`, and `=` may follow it.
 */
export function htmlFlowStart(src: string, pos: number, max: number): HtmlFlowStart | undefined {
  let p = pos + 1;
  let c = at(src, p, max);
  if (c === 0x21) {
    p++;
    c = at(src, p, max);
    if (c === DASH) return at(src, p + 1, max) === DASH ? { kind: 2, after: p + 2 } : undefined;
    if (c === LEFT_BRACKET) return p + 7 <= max && src.startsWith("CDATA[", p + 1) ? { kind: 5, after: p + 7 } : undefined;
    return isAlpha(c) ? { kind: 4, after: p + 1 } : undefined;
  }
  if (c === QUESTION) return { kind: 3, after: p + 1 };
  const closing = c === SLASH;
  if (closing) {
    p++;
    c = at(src, p, max);
  }
  if (!isAlpha(c)) return undefined;
  const nameStart = p;
  do p++;
  while (((c = at(src, p, max)), c === DASH || isAlphanumeric(c)));
  if (!(c === EOF || c === SLASH || c === GREATER || isWhitespace(c))) return undefined;
  const name = src.slice(nameStart, p).toLowerCase();
  if (c !== SLASH && !closing && HTML_RAW_NAMES.has(name)) return { kind: 1, after: p };
  if (HTML_BLOCK_NAMES.has(name)) {
    if (c !== SLASH) return { kind: 6, after: p };
    return at(src, p + 1, max) === GREATER ? { kind: 6, after: p + 2 } : undefined;
  }
  return completeTagLine(src, p, max, closing) ? { kind: 7, after: max } : undefined;
}

const enum Tag {
  ClosingAfter,
  NameBefore,
  Name,
  NameAfter,
  ValueBefore,
  ValueQuoted,
  ValueUnquoted,
  ValueQuotedAfter,
  End,
  After,
}

/** htmlFlow's `complete…` states: the rest of a tag after its name, then only spaces and tabs to the end of the line. */
function completeTagLine(src: string, pos: number, max: number, closing: boolean): boolean {
  let p = pos;
  let state = closing ? Tag.ClosingAfter : Tag.NameBefore;
  let marker = 0;
  for (;;) {
    const c = at(src, p, max);
    switch (state) {
      case Tag.ClosingAfter:
        if (isSpaceOrTab(c)) p++;
        else state = Tag.End;
        break;
      case Tag.NameBefore:
        if (c === SLASH) {
          p++;
          state = Tag.End;
        } else if (c === COLON || c === UNDERSCORE || isAlpha(c)) {
          p++;
          state = Tag.Name;
        } else if (isSpaceOrTab(c)) p++;
        else state = Tag.End;
        break;
      case Tag.Name:
        if (c === DASH || c === DOT || c === COLON || c === UNDERSCORE || isAlphanumeric(c)) p++;
        else state = Tag.NameAfter;
        break;
      case Tag.NameAfter:
        if (c === EQUALS) {
          p++;
          state = Tag.ValueBefore;
        } else if (isSpaceOrTab(c)) p++;
        else state = Tag.NameBefore;
        break;
      case Tag.ValueBefore:
        if (c === EOF || c === LESS || c === EQUALS || c === GREATER || c === GRAVE) return false;
        if (c === QUOTE || c === APOSTROPHE) {
          marker = c;
          p++;
          state = Tag.ValueQuoted;
        } else if (isSpaceOrTab(c)) p++;
        else state = Tag.ValueUnquoted;
        break;
      case Tag.ValueQuoted:
        if (c === marker) {
          p++;
          state = Tag.ValueQuotedAfter;
        } else if (c === EOF || c === LF) return false;
        else p++;
        break;
      case Tag.ValueUnquoted:
        if (c === EOF || c === QUOTE || c === APOSTROPHE || c === SLASH || c === LESS || c === EQUALS || c === GREATER || c === GRAVE || isWhitespace(c)) state = Tag.NameAfter;
        else p++;
        break;
      case Tag.ValueQuotedAfter:
        if (c === SLASH || c === GREATER || isSpaceOrTab(c)) state = Tag.NameBefore;
        else return false;
        break;
      case Tag.End:
        if (c !== GREATER) return false;
        p++;
        state = Tag.After;
        break;
      case Tag.After:
        if (c === EOF || c === LF) return true;
        if (!isSpaceOrTab(c)) return false;
        p++;
        break;
    }
  }
}

const enum Close {
  Continuation,
  CommentInside,
  RawTagOpen,
  RawEndTag,
  CdataInside,
  DeclarationInside,
}

/**
 * htmlFlow's `continuation…` states for kinds 1 to 5: whether the end condition is met on the
 * line between `pos` and `max`. `first` is true on the block's first line, where `pos` is the
 * `after` of `htmlFlowStart` (micromark starts comments, instructions and declarations in its
 * "declaration inside" state there, so that `<!-->` and `<?>` close at once). Like micromark,
 * `]]]>` does not close a CDATA block.
 */
export function htmlFlowCloses(kind: number, src: string, pos: number, max: number, first: boolean): boolean {
  let state = first && (kind === 2 || kind === 3 || kind === 4) ? Close.DeclarationInside : Close.Continuation;
  let name = "";
  for (let p = pos; p < max; ) {
    const c = src.charCodeAt(p);
    switch (state) {
      case Close.Continuation:
        if (kind === 2 && c === DASH) state = Close.CommentInside;
        else if (kind === 1 && c === LESS) state = Close.RawTagOpen;
        else if (kind === 4 && c === GREATER) return true;
        else if (kind === 3 && c === QUESTION) state = Close.DeclarationInside;
        else if (kind === 5 && c === RIGHT_BRACKET) state = Close.CdataInside;
        p++;
        continue;
      case Close.CommentInside:
        if (c === DASH) {
          state = Close.DeclarationInside;
          p++;
        } else state = Close.Continuation;
        continue;
      case Close.RawTagOpen:
        if (c === SLASH) {
          state = Close.RawEndTag;
          name = "";
          p++;
        } else state = Close.Continuation;
        continue;
      case Close.RawEndTag:
        if (c === GREATER && HTML_RAW_NAMES.has(name.toLowerCase())) return true;
        if (isAlpha(c) && name.length < 8) {
          name += src[p];
          p++;
        } else state = Close.Continuation;
        continue;
      case Close.CdataInside:
        if (c === RIGHT_BRACKET) {
          state = Close.DeclarationInside;
          p++;
        } else state = Close.Continuation;
        continue;
      case Close.DeclarationInside:
        if (c === GREATER) return true;
        if (c === DASH && kind === 2) p++;
        else state = Close.Continuation;
        continue;
    }
  }
  return false;
}

const enum Html {
  CommentEnd,
  Comment,
  CommentClose,
  Cdata,
  CdataClose,
  CdataEnd,
  TagOpenBetween,
  AttributeName,
  AttributeNameAfter,
  ValueBefore,
  ValueQuoted,
  ValueUnquoted,
  ValueQuotedAfter,
  End,
}

/**
 * Where comments, CDATA sections, declarations and instructions of raw inline HTML are known not to
 * close (each of them fails only at the end of the content, so one that starts later fails too):
 * keeps a heading of many unclosed `<!--` linear.
 */
export interface HtmlTextMemo {
  /** The end of the content the positions below were found for. */
  max?: number;
  comment?: number;
  cdata?: number;
  declaration?: number;
  instruction?: number;
}

/**
 * micromark-core-commonmark `htmlText` (raw HTML inside a paragraph or heading): `pos` is at the
 * `<`; returns the position after the construct, or -1. White space is spaces, tabs and line
 * endings only (markdown-it's `\s` would also take U+00A0 and the like).
 */
export function scanHtmlText(src: string, pos: number, max: number, memo: HtmlTextMemo = {}): number {
  if (memo.max !== max) {
    memo.max = max;
    memo.comment = memo.cdata = memo.declaration = memo.instruction = undefined;
  }
  let p = pos + 1;
  let c = at(src, p, max);
  let state: Html;
  if (c === 0x21) {
    p++;
    c = at(src, p, max);
    if (c === DASH) {
      if (at(src, p + 1, max) !== DASH) return -1;
      p += 2;
      if (memo.comment !== undefined && pos >= memo.comment) return -1;
      state = Html.CommentEnd;
    } else if (c === LEFT_BRACKET) {
      if (!(p + 7 <= max && src.startsWith("CDATA[", p + 1))) return -1;
      p += 7;
      if (memo.cdata !== undefined && pos >= memo.cdata) return -1;
      state = Html.Cdata;
    } else if (isAlpha(c)) {
      if (memo.declaration !== undefined && pos >= memo.declaration) return -1;
      const end = src.indexOf(">", p + 1);
      if (end < 0 || end >= max) {
        memo.declaration = pos;
        return -1;
      }
      return end + 1;
    } else return -1;
  } else if (c === QUESTION) {
    if (memo.instruction !== undefined && pos >= memo.instruction) return -1;
    const end = src.indexOf("?>", p + 1);
    if (end < 0 || end + 2 > max) {
      memo.instruction = pos;
      return -1;
    }
    return end + 2;
  } else if (c === SLASH) {
    p++;
    if (!isAlpha(at(src, p, max))) return -1;
    do p++;
    while (((c = at(src, p, max)), c === DASH || isAlphanumeric(c)));
    p = skipWhitespace(src, p, max);
    return at(src, p, max) === GREATER ? p + 1 : -1;
  } else if (isAlpha(c)) {
    do p++;
    while (((c = at(src, p, max)), c === DASH || isAlphanumeric(c)));
    if (!(c === SLASH || c === GREATER || isWhitespace(c))) return -1;
    state = Html.TagOpenBetween;
  } else return -1;
  let marker = 0;
  for (;;) {
    c = at(src, p, max);
    switch (state) {
      case Html.CommentEnd:
        if (c === GREATER) return p + 1;
        if (c === DASH) p++;
        else state = Html.Comment;
        break;
      case Html.Comment:
        if (c === EOF) {
          memo.comment = pos;
          return -1;
        }
        p++;
        if (c === DASH) state = Html.CommentClose;
        break;
      case Html.CommentClose:
        if (c === DASH) {
          p++;
          state = Html.CommentEnd;
        } else state = Html.Comment;
        break;
      case Html.Cdata:
        if (c === EOF) {
          memo.cdata = pos;
          return -1;
        }
        p++;
        if (c === RIGHT_BRACKET) state = Html.CdataClose;
        break;
      case Html.CdataClose:
        if (c === RIGHT_BRACKET) {
          p++;
          state = Html.CdataEnd;
        } else state = Html.Cdata;
        break;
      case Html.CdataEnd:
        if (c === GREATER) return p + 1;
        if (c === RIGHT_BRACKET) p++;
        else state = Html.Cdata;
        break;
      case Html.TagOpenBetween:
        if (c === SLASH) {
          p++;
          state = Html.End;
        } else if (c === COLON || c === UNDERSCORE || isAlpha(c)) {
          p++;
          state = Html.AttributeName;
        } else if (isWhitespace(c)) p++;
        else state = Html.End;
        break;
      case Html.AttributeName:
        if (c === DASH || c === DOT || c === COLON || c === UNDERSCORE || isAlphanumeric(c)) p++;
        else state = Html.AttributeNameAfter;
        break;
      case Html.AttributeNameAfter:
        if (c === EQUALS) {
          p++;
          state = Html.ValueBefore;
        } else if (isWhitespace(c)) p++;
        else state = Html.TagOpenBetween;
        break;
      case Html.ValueBefore:
        if (c === EOF || c === LESS || c === EQUALS || c === GREATER || c === GRAVE) return -1;
        if (c === QUOTE || c === APOSTROPHE) {
          marker = c;
          p++;
          state = Html.ValueQuoted;
        } else if (isWhitespace(c)) p++;
        else {
          p++;
          state = Html.ValueUnquoted;
        }
        break;
      case Html.ValueQuoted:
        if (c === marker) {
          p++;
          state = Html.ValueQuotedAfter;
        } else if (c === EOF) return -1;
        else p++;
        break;
      case Html.ValueUnquoted:
        if (c === EOF || c === QUOTE || c === APOSTROPHE || c === LESS || c === EQUALS || c === GRAVE) return -1;
        if (c === SLASH || c === GREATER || isWhitespace(c)) state = Html.TagOpenBetween;
        else p++;
        break;
      case Html.ValueQuotedAfter:
        if (c === SLASH || c === GREATER || isWhitespace(c)) state = Html.TagOpenBetween;
        else return -1;
        break;
      case Html.End:
        return c === GREATER ? p + 1 : -1;
    }
  }
}

/** micromark-util-classify-character: 1 for white space (or the edge of the text), 2 for punctuation, 0 otherwise. One UTF-16 code unit at a time, as micromark reads. */
export function classifyCharacter(code: number): number {
  if (Number.isNaN(code) || code === TAB || code === LF || code === SPACE) return 1;
  const char = String.fromCharCode(code);
  if (WHITESPACE.test(char)) return 1;
  return PUNCTUATION.test(char) ? 2 : 0;
}

const WHITESPACE = /\s/;
const PUNCTUATION = /\p{P}|\p{S}/u;
