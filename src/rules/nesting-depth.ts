import { defineRule } from "./define.js";

/** The depth of the deepest array or object in a JSON value (1 for a flat object), or Infinity once past `limit`. Iterative: no recursion on hostile input. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return Number.POSITIVE_INFINITY;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(current) ? current : Object.values(current)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return deepest;
}

export const nestingDepthRule = defineRule({
  id: "nesting-depth",
  scope: "line",
  meta: { description: "No record nests arrays and objects deeper than the cap (--max-depth, default 64): a record is at most 2 deep.", defaultSeverity: "error", lineOrder: 65 },
  messages: { tooDeep: "the value nests arrays and objects more than {{max}} deep: it was skipped (raise the cap with --max-depth)" },
  create(context) {
    return {
      line(state) {
        if (nestingDepth(state.value, context.limits.maxDepth) <= context.limits.maxDepth) return undefined;
        context.report({ messageId: "tooDeep", data: { max: context.limits.maxDepth }, line: state.number, pointer: "" });
        return "stop";
      },
    };
  },
});
