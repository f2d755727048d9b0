import type { RuleContext, TargetRecord } from "./define.js";

/**
 * The record `generate` writes at a record's citationAddress, when the lock context holds what it writes
 * (`lock-generated`: every artifact at hand and matching its pin). Its derived fields were made by the same
 * functions the rules check them with, from its own fields: where the record has the same inputs, a rule takes the
 * value made once rather than derive it a second time (docs/spec.md, section 14).
 */
export function generatedTwin(context: RuleContext, record: TargetRecord): Readonly<TargetRecord> | undefined {
  const generated = context.lock?.generated;
  if (generated === undefined) return undefined;
  const address = record.citationAddress;
  return typeof address === "string" ? generated.get(address)?.record : undefined;
}
