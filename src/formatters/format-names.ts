/** The names of validate's formats (apart from the formatters, so that the CLI can list them without loading them). */
export const FORMAT_NAMES = ["stylish", "json", "github", "sarif", "junit", "gitlab"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];
