/** The formats of `diff`, validate's four, junit, html and gitlab: every format name has its formatter. */
import type { DiffFormatter } from "./diff-common.js";
import { formatDiffGithub } from "./diff-github.js";
import { formatDiffGitlab } from "./diff-gitlab.js";
import { formatDiffHtml } from "./diff-html.js";
import { formatDiffJson } from "./diff-json.js";
import { formatDiffJunit } from "./diff-junit.js";
import { formatDiffSarif } from "./diff-sarif.js";
import { formatDiffStylish } from "./diff-stylish.js";

import type { DiffFormatName } from "./diff-names.js";

export const diffFormatters = {
  stylish: formatDiffStylish,
  json: formatDiffJson,
  github: formatDiffGithub,
  sarif: formatDiffSarif,
  junit: formatDiffJunit,
  html: formatDiffHtml,
  gitlab: formatDiffGitlab,
} satisfies Record<DiffFormatName, DiffFormatter>;
