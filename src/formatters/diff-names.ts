/**
 * The names of diff's formats, validate's four, junit, html and gitlab (apart from the formatters, so that the CLI can list
 * them without loading them).
 */
export const DIFF_FORMAT_NAMES = ["stylish", "json", "github", "sarif", "junit", "html", "gitlab"] as const;
export type DiffFormatName = (typeof DIFF_FORMAT_NAMES)[number];
