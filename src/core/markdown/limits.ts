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
