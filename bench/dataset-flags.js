// The dataset fields the benchmarks lock the synthetic corpus with (bench/corpus.js), as `lock` flags.
// Kept out of corpus.js, whose own digest decides whether a cached corpus is still current.
/** The `lock` flags that make the whole corpus one dataset, as the benchmarks lock it. */
export const CORPUS_SLUG = "bundesrecht";
export const CORPUS_DATASET_FLAGS = [
  "--slug",
  CORPUS_SLUG,
  "--title-id",
  "BUND",
  "--name",
  "Bundesrecht (synthetisch)",
  "--version-date",
  "2024-12-31",
  "--source-text-url",
  "https://www.legislation.gov.au/BUND/2024-12-31/text",
];
