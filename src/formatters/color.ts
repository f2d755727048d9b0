import { Chalk, type ChalkInstance } from "chalk";

export { colorLevel } from "./color-level.js";

/** A chalk instance at a fixed level, never one guessed from the process. */
export function createColor(level: 0 | 1 | 2 | 3): ChalkInstance {
  return new Chalk({ level });
}
