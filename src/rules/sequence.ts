import { integerField, type RuleContext, type RuleHandlers, type TargetRecord } from "./define.js";

/**
 * Handlers that check `field` counts 0, 1, 2, … over the records `select` picks, in file order.
 * After a wrong value the count continues from whichever of the two readings the next record
 * confirms (the old count, or the wrong value's), so one bad value or one gap is one report. A line
 * that is not a record may or may not have been one of these, so each unreadable line widens the
 * accepted values by one. The accepted values are kept as at most two ranges, so the cost per line
 * is constant however many lines are unreadable.
 */
export function checkCountsFromZero(
  context: RuleContext,
  select: (record: TargetRecord) => boolean,
  field: string,
): RuleHandlers {
  let ranges: [number, number][] = [[0, 0]];
  return {
    record({ record, line }) {
      if (!select(record)) return;
      const actual = integerField(record, field);
      if (actual === undefined) {
        ranges = ranges.map(([lo, hi]) => [lo + 1, hi + 1]);
        return;
      }
      if (ranges.some(([lo, hi]) => actual >= lo && actual <= hi)) {
        ranges = [[actual + 1, actual + 1]];
        return;
      }
      const [lo, hi] = ranges[0]!;
      context.report({
        messageId: "gap",
        data: { actual, expected: lo === hi ? lo : `${lo} to ${hi}` },
        line,
        pointer: `/${field}`,
      });
      ranges = [
        [lo + 1, hi + 1],
        [actual + 1, actual + 1],
      ];
    },
    skipped() {
      ranges = ranges.map(([lo, hi]) => [lo, hi + 1]);
    },
  };
}
