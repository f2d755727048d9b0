import { DigestLines } from "./digest-lines.js";
import { stringField, type RuleContext, type RuleHandlers } from "./define.js";

/** What `checkUnique` keeps of the values met: the line each was first met on. */
interface FirstLines {
  /** The line `value` was first met on, or undefined when it is met for the first time (then kept with `line`). */
  firstLine(value: string, line: number): number | undefined;
}

/** Any strings, in a Map. */
class MapLines implements FirstLines {
  private readonly seen = new Map<string, number>();
  firstLine(value: string, line: number): number | undefined {
    const first = this.seen.get(value);
    if (first === undefined) this.seen.set(value, line);
    return first;
  }
}

/**
 * Handlers that report a string `field` whose value an earlier record already had, naming that record's line.
 * `digests`: the values are mostly SHA-256s in hex, kept in a third of the memory (digest-lines.ts).
 */
export function checkUnique(
  context: RuleContext,
  field: string,
  { show = (v) => v, digests = false }: { show?: (value: string) => string; digests?: boolean } = {},
): RuleHandlers {
  const seen: FirstLines = digests ? new DigestLines() : new MapLines();
  return {
    record({ record, line }) {
      const value = stringField(record, field);
      if (value === undefined) return;
      const firstLine = seen.firstLine(value, line);
      if (firstLine !== undefined)
        context.report({ messageId: "duplicate", data: { value: show(value), firstLine }, line, pointer: `/${field}` });
    },
  };
}
