import { generatedWindows } from "../core/records/generated-window.js";
import type { RuleContext, TargetRecord } from "./define.js";

/**
 * The record `generate` writes at a record's citationAddress, when the lock context holds what it writes
 * (`lock-generated`: every artifact at hand and matching its pin). Its derived fields were made by the same
 * functions the rules check them with, from its own fields: where the record has the same inputs, a rule takes the
 * value made once rather than derive it a second time (docs/spec.md, section 14).
 */
export function generatedTwin(context: RuleContext, record: TargetRecord): Readonly<TargetRecord> | undefined {
  const lock = context.lock;
  if (lock === undefined) return undefined;
  const address = record.citationAddress;
  if (typeof address !== "string") return undefined;
  if (lock.generated !== undefined) return lock.generated.get(address)?.record;
  // Made as the file is read: the twin while the window holds it (generated-window.ts).
  return generatedWindows.get(lock)?.twin(address);
}
