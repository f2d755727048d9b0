import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a CR before the LF is taken off the line, which is still read. */
export const carriageReturn = defineRule({
  id: "carriage-return",
  scope: "reading",
  meta: {
    description: "Lines end with LF alone, never CR LF.",
    defaultSeverity: "error",
    // A checkout with core.autocrlf=true ends every line with CR LF: one problem per file, not one per line.
    foldRepeats: [""],
  },
  messages: {
    crlf: "line ends with CR LF: expected LF alone (a Windows checkout with core.autocrlf=true? `.gitattributes`: `.tooling/citation-targets/** -text`)",
    repeated: "the same on {{more}} ({{lines}}): line ends with CR LF",
  },
});
