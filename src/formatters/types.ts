import type { ChalkInstance } from "chalk";
import type { Problem } from "../core/problem.js";
import type { FileReport, Report } from "../core/report.js";

export interface FormatContext {
  color: ChalkInstance;
  /** Show at most this many problems per file; the summary still counts them all. */
  maxProblems?: number;
  /** The tool's version, for formats that name the tool (SARIF). */
  toolVersion?: string;
}

export type Formatter = (report: Report, context: FormatContext) => string;

/** The problems of a file that are shown, and how many were left out. */
export function shownProblems(file: FileReport, maxProblems: number | undefined): { shown: Problem[]; omitted: number } {
  const unstored = (file.unstored?.errors ?? 0) + (file.unstored?.warnings ?? 0);
  const shown = maxProblems === undefined || file.problems.length <= maxProblems ? file.problems : file.problems.slice(0, maxProblems);
  return { shown, omitted: file.problems.length - shown.length + unstored };
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
