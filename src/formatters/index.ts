import { formatGithub } from "./github.js";
import { formatGitlab } from "./gitlab.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatSarif } from "./sarif.js";
import { formatStylish } from "./stylish.js";
import type { Formatter } from "./types.js";

import type { FormatName } from "./format-names.js";

export { FORMAT_NAMES, type FormatName } from "./format-names.js";

/** Every format name has its formatter; the compiler proves none is missing. */
export const formatters = {
  stylish: formatStylish,
  json: formatJson,
  github: formatGithub,
  sarif: formatSarif,
  junit: formatJunit,
  gitlab: formatGitlab,
} satisfies Record<FormatName, Formatter>;
