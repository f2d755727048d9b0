import { stringField, type RuleContext, type RuleHandlers } from "./define.js";

/** Handlers that report a string `field` whose value an earlier record already had, naming that record's line. */
export function checkUnique(
  context: RuleContext,
  field: string,
  show: (value: string) => string = (v) => v,
): RuleHandlers {
  const seen = new Map<string, number>();
  return {
    record({ record, line }) {
      const value = stringField(record, field);
      if (value === undefined) return;
      const firstLine = seen.get(value);
      if (firstLine === undefined) seen.set(value, line);
      else
        context.report({ messageId: "duplicate", data: { value: show(value), firstLine }, line, pointer: `/${field}` });
    },
  };
}
