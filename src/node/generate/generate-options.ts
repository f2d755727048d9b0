/**
 * What `generate` is given (README, "generate"; the library's GenerateOptions), and the options of reading artifacts
 * that `update` and `adopt` share with it.
 */
export interface GenerateOptions {
  /** Path of the lock manifest. */
  manifest: string;
  cwd?: string;
  /** Write the JSONL here (atomically); without it, records go to `write`. */
  output?: string;
  /**
   * Receives the JSONL text when there is no output file (the CLI passes stdout); may return a promise to apply
   * backpressure.
   */
  write?: (text: string) => unknown;
  /** The largest artifact read, in bytes (default 64 MiB); a larger one is refused, named. */
  maxArtifactBytes?: number;
  /** The most YAML aliases an artifact's front matter may hold (default 1000); more is refused, named. */
  maxYamlAliases?: number;
  /** The most headings (targets) one artifact may have (default 100,000); more is refused, named. */
  maxHeadings?: number;
  /** The longest inline content of a heading, in UTF-16 code units (default 65,536); longer is refused, named. */
  maxHeadingLength?: number;
  /** The largest front matter, in UTF-8 bytes (default 1 MiB); a larger one is refused, named. */
  maxFrontMatterBytes?: number;
  /** Let the manifest's dataset folder lead outside the repository (default: confined to it; SECURITY.md). */
  allowOutsideRepository?: boolean;
  /**
   * Threads to parse the markdown in (one pool for the run); default one per core (at most 4) for 4 MB of markdown or
   * more, else 1 (this thread). The output is the same.
   */
  jobs?: number;
}

/**
 * The caps on reading artifacts, and the confinement, that generate, update and adopt share (docs/spec.md, section
 * 13), as GenerateOptions types them: the command line's options of the same names take this type. (UpdateOptions
 * lists them too, so that the public declarations stay as they are; update.ts checks that the two agree.)
 */
export type ArtifactReadingOptions = Pick<
  GenerateOptions,
  | "maxArtifactBytes"
  | "maxYamlAliases"
  | "maxHeadings"
  | "maxHeadingLength"
  | "maxFrontMatterBytes"
  | "allowOutsideRepository"
>;
