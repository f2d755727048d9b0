/** The one problem shape every rule produces and every formatter renders. */

export type Severity = "error" | "warning";
export type RuleSetting = Severity | "off";

export interface Problem {
  ruleId: string;
  messageId: string;
  data: Record<string, unknown>;
  message: string;
  severity: Severity;
  /** The file as given, POSIX separators. */
  file: string;
  /** 1-based line; 0 for a problem of the file as a whole. */
  line: number;
  /** 1-based column in UTF-16 code units of the line's text, where it helps. */
  column?: number;
  /** RFC 6901 pointer into the line's record; "" for the whole record or a line-level problem. */
  pointer: string;
  /**
   * A short piece of the line (or of the value at `pointer`) to show under the message, cut to a readable width;
   * `column` is 1-based in `text`.
   */
  excerpt?: Excerpt;
  /**
   * Set on a problem that stands for the same problem on more records (a rule's `meta.foldRepeats`,
   * docs/spec.md, section 11): how many more records, the line of the first (which has the problem
   * in full), and the last line. The problem's own line is the first of those records.
   */
  repeated?: Repeated;
}

export interface Repeated {
  records: number;
  firstLine: number;
  lastLine: number;
}

export interface Excerpt {
  text: string;
  column?: number;
}

/** Orders problems by file, line, column, rule, then the order they were found in. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort(
      (a, b) =>
        compare(a.problem.file, b.problem.file) ||
        a.problem.line - b.problem.line ||
        (a.problem.column ?? 0) - (b.problem.column ?? 0) ||
        compare(a.problem.ruleId, b.problem.ruleId) ||
        a.index - b.index,
    )
    .map(({ problem }) => problem);
}

/** Code-unit string comparison, the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
