import { unpairedDirectionalControl } from "../core/text.js";
import { defineRule } from "./define.js";

/**
 * Every string of a record (its text, heading, trail and names) pairs its directional formatting characters on each
 * line: an embedding or override (LRE, RLE, LRO, RLO) is closed by PDF, an isolate (LRI, RLI, FSI) by PDI. One left
 * open reorders whatever a page or a terminal shows after it (Trojan Source; docs/spec.md, rule directional-control).
 */
export const directionalControl = defineRule({
  id: "directional-control",
  scope: "record",
  meta: {
    description:
      "Directional formatting characters (U+202A–U+202E, U+2066–U+2069) in a record's strings are paired on each line.",
    defaultSeverity: "error",
  },
  messages: {
    unclosed:
      "{{field}} has {{code}} at offset {{offset}} that is never closed on its line: it reorders what is shown after it; close it ({{closer}}) or remove it in the markdown and regenerate",
    unopened:
      "{{field}} has {{code}} at offset {{offset}} that closes nothing: remove it in the markdown and regenerate",
  },
  create(context) {
    return {
      record({ record, line }) {
        const strings: [string, string][] = [];
        for (const [key, value] of Object.entries(record)) {
          if (typeof value === "string") strings.push([`/${key}`, value]);
          else if (Array.isArray(value))
            value.forEach((item, index) => {
              if (typeof item === "string") strings.push([`/${key}/${index}`, item]);
            });
        }
        for (const [pointer, text] of strings) {
          const found = unpairedDirectionalControl(text);
          if (found === undefined) continue;
          const isolate = ["U+2066", "U+2067", "U+2068"].includes(found.code);
          context.report({
            messageId: found.unclosed ? "unclosed" : "unopened",
            data: {
              field: pointer.slice(1),
              code: found.code,
              offset: String(found.index),
              closer: isolate ? "PDI, U+2069" : "PDF, U+202C",
            },
            line,
            pointer,
          });
        }
      },
    };
  },
});
