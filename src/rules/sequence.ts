import { integerField, type RuleContext, type RuleHandlers, type TargetRecord } from "./define.js";

/**
 * Handlers that check `field` counts 0, 1, 2, … over the records `select` picks, in file order.
 * After a wrong value the count continues from whichever of the two readings the next record
 * confirms (the old count, or the wrong value's), so one bad value or one gap is one report. A line
 * that is not a record may or may not have been one of these: both readings stay open.
 */
export function checkCountsFromZero(context: RuleContext, select: (record: TargetRecord) => boolean, field: string): RuleHandlers {
  let candidates = [0];
  return {
    record({ record, line }) {
      if (!select(record)) return;
      const actual = integerField(record, field);
      if (actual === undefined) {
        candidates = candidates.map((c) => c + 1);
        return;
      }
      if (candidates.includes(actual)) {
        candidates = [actual + 1];
        return;
      }
      context.report({ messageId: "gap", data: { actual, expected: candidates[0] }, line, pointer: `/${field}` });
      candidates = [candidates[0]! + 1, actual + 1];
    },
    skipped() {
      candidates = [...new Set([...candidates, ...candidates.map((c) => c + 1)])];
    },
  };
}
