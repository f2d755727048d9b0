/** Caps on reading an artifact, and the refusal when one is exceeded (docs/spec.md, section 13). */

/** Thrown for an artifact that cannot be cut: its front matter is not valid YAML, or it exceeds a cap. */
export class ArtifactError extends Error {
  override name = "ArtifactError";
}

export interface ArtifactLimits {
  /** The most YAML aliases a front matter may hold (default 1000). */
  maxYamlAliases?: number;
  /** The most headings (targets) one artifact may have (default DEFAULT_MAX_HEADINGS). */
  maxHeadings?: number;
  /** The longest inline content of a heading, in UTF-16 code units (default DEFAULT_MAX_HEADING_LENGTH). */
  maxHeadingLength?: number;
  /** The largest front matter, in UTF-8 bytes between its fences (default DEFAULT_MAX_FRONT_MATTER_BYTES). */
  maxFrontMatterBytes?: number;
}

/**
 * The largest front matter, in bytes. The YAML parser holds a few hundred bytes per byte of it (a
 * flow collection of 16 MB filled a 3.4 GB heap), and the front matter of a statute is a few hundred
 * bytes.
 */
export const DEFAULT_MAX_FRONT_MATTER_BYTES = 2 ** 20;

/**
 * The most lines block quotes nested in one another may span, added up over the nesting (a quote
 * nested in another counts the lines it may span, the outermost none): markdown-it saves four numbers
 * per line of a block quote and scans its lines again at every level of nesting, so the cost is
 * the depth times the lines. 2,000 nested quotes over 300,000 lazy lines (604 KB) filled a 2.9 GB
 * heap. A statute's quotes are a few levels over a few hundred lines.
 */
export const MAX_NESTED_QUOTE_LINES = 2_000_000;

export const DEFAULT_MAX_YAML_ALIASES = 1000;

/**
 * The most headings one artifact may have. Each heading is a target, and an artifact's records are
 * held together while they are serialised; the largest statute has a few thousand.
 */
export const DEFAULT_MAX_HEADINGS = 100_000;

/**
 * The most block tokens one top-level block may hold: a block quote or list is tokenized whole
 * before it is handed on, so its tokens are held together (about 150 bytes each). A document
 * with a larger one is refused, named.
 */
export const MAX_BLOCK_TOKENS = 1_000_000;

/**
 * The most lines one top-level block may span when it is longer than a piece of the body (about
 * 1 MiB: src/core/markdown/blocks.ts). Such a block is parsed whole, and markdown-it holds five
 * numbers per line of it.
 */
export const MAX_BLOCK_LINES = 1_000_000;

/**
 * The longest inline content of a heading, in UTF-16 code units. markdown-it holds a token per
 * delimiter of a heading's inline content while it pairs them (up to about 250 bytes per code
 * unit); a statute's longest heading is a few hundred.
 */
export const DEFAULT_MAX_HEADING_LENGTH = 65_536;

/**
 * The heading trails of a markdown file's records may add up to this many characters (UTF-16 code units) for each
 * character of the file, and HEADING_TRAIL_FLOOR more: docs/spec.md, section 13. Every record repeats the headings above
 * it, so 131 KB of markdown (a heading of 65,000 characters over 8,388 short ones) made 552 MB of JSONL. The synthetic
 * statute book's files reach 0.3 (2.5 with units below the heading).
 */
export const HEADING_TRAIL_PER_CHARACTER = 64;

/** What a file's records' heading trails may hold beyond HEADING_TRAIL_PER_CHARACTER times its characters. */
export const HEADING_TRAIL_FLOOR = 4096;

/** The most characters a file of `characters` characters may have in its records' heading trails, in all. */
export function headingTrailCap(characters: number): number {
  return HEADING_TRAIL_FLOOR + HEADING_TRAIL_PER_CHARACTER * characters;
}

/**
 * The refusal of a file whose records' heading trails pass its cap (headingTrailCap): the same words wherever it is
 * found (the worker thread that makes the file's lines, or the walk that adds its folders' trails).
 */
export function headingTrailRefusal(path: string, characters: number): string {
  return `${path}: its records' heading trails add up to more than ${headingTrailCap(characters)} characters, the cap for a file of ${characters} characters (${HEADING_TRAIL_PER_CHARACTER} a character, and ${HEADING_TRAIL_FLOOR}): every record repeats the headings above it, in the file and its folders, so a long heading above many short ones multiplies`;
}
