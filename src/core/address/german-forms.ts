/**
 * Two heading forms of German federal law as gesetze-im-internet.de publishes it (docs/spec.md, section 7, "Local
 * coordinate: designations"): the `(XXXX)` place holder before a heading, and runs of §§ (`§§ 3 bis 6`, `§§ 114, 115`,
 * `§§ 114 und 115`, and ranges with one sign: `§ 3 bis 6`).
 */

/**
 * The place holder written before a heading whose enumeration the source lacks (`(XXXX) §§ 3 bis 6 (weggefallen)`): no
 * part of the designation that follows it.
 */
export const PLACEHOLDER = /^\(XXXX\)\s*/u;

/** A § number: digits, dotted parts, up to three letters (`114`, `7.08`, `5a`). */
const NUMBER = "\\d+(?:\\.\\d+)*[a-zA-Z]{0,3}";
/** What joins the numbers of a run: a comma, `und`, or a range (`bis`, `-`, `–`). */
const JOIN = "\\s*(?:,|und|bis|-|\\u2013)\\s*";
const RUN = new RegExp(
  `^§§\\s*(${NUMBER})(?:${JOIN}${NUMBER})*${JOIN}(${NUMBER})(?=$|[\\s.:,;()\\u2013\\u2014-])`,
  "u",
);

/**
 * A range written with one sign (`§ 2 bis 4`, `§ 5a bis § 5c`, `§ 3 – 5`): `bis` before a second number, never the
 * Latin suffix (`§ 6 bis`); a hyphen only after a space (`§ 3 - 5`), as for articles (designation.ts, ARTICLE_RANGE).
 */
const SINGLE_SIGN_RANGE = new RegExp(
  `^§\\s*(${NUMBER})(?:\\s*(?:bis|\\u2013)\\s*|\\s+-\\s*)(?:§\\s*)?(${NUMBER})(?=$|[\\s.:,;()\\u2013\\u2014-])`,
  "u",
);

/**
 * A run of §§ at the start of `text`: a list (`§§ 114, 115`, `§§ 114 und 115`, `§§ 1, 3 und 5`) or a range (`§§ 3 bis
 * 13`, or with one sign: `§ 3 bis 13`, `§ 5a bis § 5c`), keyed from its first to its last number (`§§-114-bis-115`),
 * so that an editorial rewording of the run keeps its key; with where it ends in `text`. Undefined when `text` starts
 * with no run.
 */
export function paragraphRun(text: string): { key: string; end: number } | undefined {
  const m = RUN.exec(text) ?? SINGLE_SIGN_RANGE.exec(text);
  if (!m) return undefined;
  return { key: `§§-${m[1]!.toLowerCase()}-bis-${m[2]!.toLowerCase()}`, end: m[0].length };
}
