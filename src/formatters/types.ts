import { posix } from "node:path";
import type { ChalkInstance } from "chalk";
import type { Problem } from "../core/report/problem.js";
import type { FileReport, Report } from "../core/report/report.js";

export interface FormatContext {
  color: ChalkInstance;
  /** Show at most this many problems per file; the summary still counts them all. */
  maxProblems?: number;
  /** The tool's version, for formats that name the tool (SARIF). */
  toolVersion?: string;
  /**
   * Where the working directory is in the repository, POSIX, relative to its root ("" at the root,
   * "docs/sub" below it): formats read by CI (SARIF, GitHub annotations) then give paths from the
   * repository root, which is all a code-scanning dashboard or an annotation can place.
   */
  cwdInRepository?: string;
  /**
   * The package's public repository (https), when package.json names one: SARIF's helpUri then points at the rule's
   * section there.
   */
  repositoryUrl?: string;
}

/**
 * A path as shown (relative to the working directory) made relative to the repository root, when
 * the context knows where that is and the file is inside it; else the path as shown.
 */
export function repositoryPath(
  shown: string,
  cwdInRepository: string | undefined,
): { path: string; inRepository: boolean } {
  if (cwdInRepository === undefined || posix.isAbsolute(shown) || shown === "-" || shown === "<stdin>")
    return { path: shown, inRepository: false };
  const path = posix.normalize(posix.join(cwdInRepository, shown));
  return path === ".." || path.startsWith("../") ? { path: shown, inRepository: false } : { path, inRepository: true };
}

export type Formatter = (report: Report, context: FormatContext) => string;

/**
 * The problems of a file that are shown, how many were left out, and how many of those are errors (a format that has
 * a verdict per problem, such as JUnit's failures, must still fail on an error it does not show).
 */
export function shownProblems(
  file: FileReport,
  maxProblems: number | undefined,
): { shown: Problem[]; omitted: number; omittedErrors: number } {
  const unstored = (file.unstored?.errors ?? 0) + (file.unstored?.warnings ?? 0);
  const shown =
    maxProblems === undefined || file.problems.length <= maxProblems
      ? file.problems
      : file.problems.slice(0, maxProblems);
  let omittedErrors = file.unstored?.errors ?? 0;
  for (let i = shown.length; i < file.problems.length; i++) if (file.problems[i]!.severity === "error") omittedErrors++;
  return { shown, omitted: file.problems.length - shown.length + unstored, omittedErrors };
}

/**
 * Why a file's problems were left out: --max-problems cut the list, or the file had more than were kept in memory
 * (--max-stored-problems) and the rest were only counted.
 */
export function omittedReason(shown: number, maxProblems: number | undefined): string {
  return maxProblems !== undefined && shown === maxProblems
    ? `--max-problems ${maxProblems}`
    : "the rest were counted, not kept: raise --max-stored-problems to see them";
}
