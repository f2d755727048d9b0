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
}

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
