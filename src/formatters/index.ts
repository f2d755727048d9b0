import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatStylish } from "./stylish.js";
import type { Formatter } from "./types.js";

export const FORMAT_NAMES = ["stylish", "json", "github"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Every format name has its formatter; the compiler proves none is missing. */
export const formatters = {
  stylish: formatStylish,
  json: formatJson,
  github: formatGithub,
} satisfies Record<FormatName, Formatter>;

export type { FormatContext, Formatter } from "./types.js";
