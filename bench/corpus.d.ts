/** Types of bench/corpus.js for the tests that build a realistic corpus with it (test/adoption.test.ts). */
export interface CorpusDescription {
  version: string;
  mb: number;
  seed: string;
  files: number;
  bytes: number;
  digest: string;
}
/**
 * Writes a corpus of German-style laws of about `mb` megabytes into `dir` (replacing it), one `<slug>/index.md` per
 * law.
 */
export function writeCorpus(options: { mb: number; seed: string; dir: string }): CorpusDescription;
export function ensureCorpus(options: {
  mb: number;
  seed: string;
  dir: string;
}): CorpusDescription & { cached?: boolean };
