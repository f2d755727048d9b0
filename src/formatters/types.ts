import type { ChalkInstance } from "chalk";
import type { Problem } from "../core/problem.js";
import type { FileReport, Report } from "../node/validate.js";

export interface FormatContext {
  color: ChalkInstance;
  /** Show at most this many problems per file; the summary still counts them all. */
  maxProblems?: number;
}

export type Formatter = (report: Report, context: FormatContext) => string;

/** The problems of a file that are shown, and how many were left out. */
export function shownProblems(file: FileReport, maxProblems: number | undefined): { shown: Problem[]; omitted: number } {
  if (maxProblems === undefined || file.problems.length <= maxProblems) return { shown: file.problems, omitted: 0 };
  return { shown: file.problems.slice(0, maxProblems), omitted: file.problems.length - maxProblems };
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
