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
    const check = (text: string, line: number, key: string, index?: number) => {
      const found = unpairedDirectionalControl(text);
      if (found === undefined) return;
      const pointer = index === undefined ? `/${key}` : `/${key}/${index}`;
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
    };
    return {
      record({ record, line }) {
        // Each string member and each string of an array member, in the record's order; a pointer is made only for a
        // problem.
        for (const key of Object.keys(record)) {
          const value = record[key];
          if (typeof value === "string") check(value, line, key);
          else if (Array.isArray(value))
            for (let index = 0; index < value.length; index++) {
              const item: unknown = value[index];
              if (typeof item === "string") check(item, line, key, index);
            }
        }
      },
    };
  },
});
