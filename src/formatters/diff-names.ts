/** The names of diff's formats, the same four as validate's (apart from the formatters, so that the CLI can list them without loading them). */
export const DIFF_FORMAT_NAMES = ["stylish", "json", "github", "sarif"] as const;
export type DiffFormatName = (typeof DIFF_FORMAT_NAMES)[number];
