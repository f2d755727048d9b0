import { formatGithub } from "./github.js";
import { formatGitlab } from "./gitlab.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatSarif } from "./sarif.js";
import { formatStylish } from "./stylish.js";
import type { Formatter } from "./types.js";

export const FORMAT_NAMES = ["stylish", "json", "github", "sarif", "junit", "gitlab"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Every format name has its formatter; the compiler proves none is missing. */
export const formatters = {
  stylish: formatStylish,
  json: formatJson,
  github: formatGithub,
  sarif: formatSarif,
  junit: formatJunit,
  gitlab: formatGitlab,
} satisfies Record<FormatName, Formatter>;
