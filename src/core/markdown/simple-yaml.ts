/**
 * A conservative recogniser of the front matter most published legislation carries: one
 * `key: value` per line, each key a plain word used once, each value empty, a plain scalar of safe
 * characters, a quoted string, or a flow sequence of those, on one line, or a block scalar whose lines
 * are indented by two spaces. Such text is always valid YAML 1.2 with no alias, so
 * the full YAML parse (about a third of the cost of reading a small statute) can be skipped for it;
 * anything else is parsed in full. `test/simple-yaml.test.ts` holds the recogniser to the YAML
 * parser: everything it accepts, the parser reads without an error and with no alias.
 */

import { isLatin1, LATIN1_LETTER, LATIN1_NUMBER } from "../address/latin1.js";

/**
 * A key: a letter or underscore, then letters, digits, underscores and hyphens (far below YAML's 1,024-character limit
 * for implicit keys).
 */
const KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;
/**
 * A plain scalar: a letter or digit first (no indicator), then no character that could end it, open a
 * flow collection or a comment, or be a control character.
 */
const PLAIN = /^[\p{L}\p{N}][^:#{}[\],\t\p{Cc}]*$/u;
/** The same for a value without a character above U+00FF (`\p{Cc}` is U+0000–U+001F and U+007F–U+009F): cheaper to compile. */
const LATIN1_PLAIN = new RegExp(`^[${LATIN1_LETTER}${LATIN1_NUMBER}][^:#{}[\\],\\t\\x00-\\x1f\\x7f-\\x9f]*$`);
/** Each pattern of this module with a Latin-1 form, and that form (test/latin1-classes.test.ts). */
export const latin1Forms = (): readonly (readonly [RegExp, RegExp])[] => [[PLAIN, LATIN1_PLAIN]];
/** A double-quoted string with only the simplest escapes; a single-quoted string ('' for a quote). */
const DOUBLE = /^"(?:[^"\\\p{Cc}]|\\["\\/nt])*"$/u;
const SINGLE = /^'(?:[^'\p{Cc}]|'')*'$/u;

/**
 * The headers of a block scalar (literal or folded, clipped or stripped), and one of its lines: two spaces, then text.
 */
const BLOCK_HEADER = new Set(["|", "|-", ">", ">-"]);
const BLOCK_LINE = /^ {2}[^ \p{Cc}][^\p{Cc}]*$/u;

/** A scalar on one line: plain, double-quoted or single-quoted. */
const scalar = (value: string) =>
  (isLatin1(value) ? LATIN1_PLAIN : PLAIN).test(value) || DOUBLE.test(value) || SINGLE.test(value);

/**
 * A flow sequence on one line, `[a, b, "c"]` (tags, keywords): split at commas, each item a scalar
 * (a quoted item holding a comma is split apart and so refused: the parser reads it). No regex over
 * the whole line, so that a hostile line costs linear time.
 */
function flowSequence(value: string): boolean {
  if (!value.startsWith("[") || !value.endsWith("]")) return false;
  const inner = value.slice(1, -1);
  if (inner.trim() === "") return true;
  return inner.split(",").every((item) => scalar(item.trim()));
}

/** True when `text` is front matter of the simple kind above (and so valid YAML, without aliases). */
export function isSimpleYamlMap(text: string): boolean {
  if (text.includes("\r")) return false;
  const keys = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") {
      if (line !== "") return false; // white space alone on a line: left to the parser
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) return false;
    const key = line.slice(0, colon);
    if (!KEY.test(key) || keys.has(key)) return false;
    keys.add(key);
    const rest = line.slice(colon + 1);
    if (rest === "") continue;
    if (!rest.startsWith(" ")) return false;
    const value = rest.trim();
    if (value === "") continue;
    if (BLOCK_HEADER.has(value)) {
      // A literal or folded block scalar: its lines indented by exactly two spaces, at least one.
      let content = 0;
      while (i + 1 < lines.length && BLOCK_LINE.test(lines[i + 1]!)) {
        i++;
        content++;
      }
      if (content === 0) return false;
      continue;
    }
    if (!(scalar(value) || flowSequence(value))) return false;
  }
  return true;
}
