import { addressOf, defineRule, integerField, isMarkdownArtifact, stringField } from "./define.js";
import { UnitNesting } from "./unit-nesting.js";

export const blockRange = defineRule({
  id: "block-range",
  scope: "dataset",
  meta: {
    description:
      "Block ranges are well formed (0 ≤ start ≤ end) and, per artifact, contiguous from 0 without overlap; only an artifact with no blocks has an empty range.",
    defaultSeverity: "error",
  },
  messages: {
    negative: "sourceArtifactBlockStartIndex is {{start}}: expected 0 or more",
    reversed:
      "block range [{{start}}, {{end}}) ends before it starts: expected sourceArtifactBlockEndExclusive ≥ sourceArtifactBlockStartIndex",
    notContiguous:
      "block range of {{path}} starts at {{start}}: expected {{expected}}, where the artifact's previous target ended (line {{previousLine}})",
    notFromZero: "first target of {{path}} starts at block {{start}}: expected 0",
    empty:
      "empty block range [{{start}}, {{end}}) in {{path}}: only an artifact with no blocks has an empty (single) target",
    unitStart:
      "block range of unit {{local}} starts at {{start}}: expected {{expected}}, where the body of {{parent}} (line {{parentLine}}) goes on (units partition their parent's body)",
    unitsShort:
      "the units of {{local}} end at block {{actual}}: expected {{expected}}, where its range ends (units partition their parent's body)",
  },
  create(context) {
    let current: { path: string; end: number; line: number; empty: boolean } | undefined;
    // An unreadable line since the last record may have been a target of this artifact or the first of the next: its
    // start is then not checked.
    let afterSkip = false;
    /** Units seen since the last unreadable line: with one between, a parent's units are not said to fall short. */
    let unreadable = false;
    const nesting = new UnitNesting((entry) => {
      if (entry.children > 0 && entry.nextChild !== entry.end && !unreadable)
        context.report({
          messageId: "unitsShort",
          data: { local: entry.local, actual: entry.nextChild, expected: entry.end },
          line: entry.line,
          pointer: "/sourceArtifactBlockEndExclusive",
        });
    });
    return {
      record({ record, line }) {
        if (!isMarkdownArtifact(record)) return;
        const start = integerField(record, "sourceArtifactBlockStartIndex");
        const end = integerField(record, "sourceArtifactBlockEndExclusive");
        const path = stringField(record, "artifactRelativePath");
        if (start === undefined || end === undefined || path === undefined) return;
        const local = addressOf(record)?.local;
        if (local !== undefined && start >= 0 && end >= start) {
          const { parent } = nesting.place(path, local, start, end, line);
          if (parent !== undefined) {
            // A unit below the heading: it continues its parent's body.
            if (start !== parent.nextChild && !afterSkip)
              context.report({
                messageId: "unitStart",
                data: { local, start, expected: parent.nextChild, parent: parent.local, parentLine: parent.line },
                line,
                pointer: "/sourceArtifactBlockStartIndex",
              });
            else if (end === start)
              context.report({
                messageId: "empty",
                data: { path, start, end },
                line,
                pointer: "/sourceArtifactBlockEndExclusive",
              });
            parent.nextChild = end;
            parent.children++;
            afterSkip = false;
            return;
          }
        }
        if (start < 0) {
          context.report({ messageId: "negative", data: { start }, line, pointer: "/sourceArtifactBlockStartIndex" });
        } else if (end < start) {
          context.report({
            messageId: "reversed",
            data: { start, end },
            line,
            pointer: "/sourceArtifactBlockEndExclusive",
          });
        } else if (current?.path === path) {
          if (start !== current.end && !afterSkip) {
            context.report({
              messageId: "notContiguous",
              data: { path, start, expected: current.end, previousLine: current.line },
              line,
              pointer: "/sourceArtifactBlockStartIndex",
            });
          } else if (current.empty || end === start) {
            const at = current.empty ? current.line : line;
            context.report({
              messageId: "empty",
              data: { path, start: current.empty ? current.end : start, end: current.empty ? current.end : end },
              line: at,
              pointer: "/sourceArtifactBlockEndExclusive",
            });
          }
        } else if (start !== 0 && !afterSkip) {
          context.report({
            messageId: "notFromZero",
            data: { path, start },
            line,
            pointer: "/sourceArtifactBlockStartIndex",
          });
        }
        current = { path, end: Math.max(end, start), line, empty: end === start };
        afterSkip = false;
      },
      skipped() {
        afterSkip = true;
        unreadable = true;
      },
      end() {
        nesting.finish();
      },
    };
  },
});
