/** The report formats of `update --check` and `generate --check`: text, json, and the CI formats. */
import type { FreshnessFormat } from "../formatters/freshness.js";

export const CHECK_FORMATS = ["text", "json", "github", "sarif", "junit", "gitlab"] as const;

/** True for the CI formats, which report a check only. */
export function isFreshnessFormat(format: string): format is FreshnessFormat {
  return format === "github" || format === "sarif" || format === "junit" || format === "gitlab";
}
