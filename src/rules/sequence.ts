import { integerField, type RuleContext, type RuleHandlers, type TargetRecord } from "./define.js";

/** Handlers that check `field` counts 0, 1, 2, … over the records `select` picks, in file order. */
export function checkCountsFromZero(context: RuleContext, select: (record: TargetRecord) => boolean, field: string): RuleHandlers {
  let expected = 0;
  return {
    record({ record, line }) {
      if (!select(record)) return;
      const actual = integerField(record, field);
      if (actual !== undefined && actual !== expected) {
        context.report({ messageId: "gap", data: { actual, expected }, line, pointer: `/${field}` });
        expected = actual + 1; // one report per gap, not one per later record
      } else {
        expected++;
      }
    },
  };
}
