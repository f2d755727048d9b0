/**
 * How the records of one artifact nest in a dataset with units below the heading (docs/spec.md, "Units below the
 * heading"): a record whose block range lies inside the range of an open record and whose local coordinate is that
 * record's local and one more step is a unit of it. Without units no record nests, and every record is a target of
 * the artifact's top level, as before. Shared by block-range and lock-artifact-body.
 */

/** An open record: a heading's target (or the text before the first heading) or a unit. */
export interface NestEntry {
  local: string;
  start: number;
  end: number;
  line: number;
  /** Its markdown, when the caller keeps it. */
  markdown: string | undefined;
  /** True for a unit; false for a target of the artifact's top level. */
  unit: boolean;
  /** Where its next unit must start: after the heading's own block, or at a unit's start (its intro holds its label). */
  nextChild: number;
  /** Its units so far. */
  children: number;
  /** The markdown of its units so far, when the caller keeps it. */
  childText: string[];
}

/** Whether a record (`local`, `[start, end)`) is a unit of the open record `parent`. */
function isUnitOf(parent: NestEntry, local: string, start: number, end: number): boolean {
  return (
    start >= parent.start &&
    end <= parent.end &&
    local.length > parent.local.length + 1 &&
    local.charCodeAt(parent.local.length) === 0x2f &&
    local.startsWith(parent.local) &&
    local.indexOf("/", parent.local.length + 1) === -1
  );
}

export class UnitNesting {
  private path: string | undefined;
  private readonly stack: NestEntry[] = [];

  /** `closed` is told of each record when the records after it can no longer be its units. */
  constructor(private readonly closed: (entry: NestEntry) => void) {}

  /**
   * Places the next markdown-artifact record: its entry, and its parent when it is a unit (undefined for a target of
   * the top level).
   */
  place(
    path: string,
    local: string,
    start: number,
    end: number,
    line: number,
    markdown?: string,
  ): { entry: NestEntry; parent: NestEntry | undefined } {
    if (path !== this.path) {
      this.finish();
      this.path = path;
    }
    while (this.stack.length > 0 && !isUnitOf(this.stack[this.stack.length - 1]!, local, start, end))
      this.closed(this.stack.pop()!);
    const parent = this.stack[this.stack.length - 1];
    const entry: NestEntry = {
      local,
      start,
      end,
      line,
      markdown,
      unit: parent !== undefined,
      nextChild: parent !== undefined ? start : start + 1,
      children: 0,
      childText: [],
    };
    this.stack.push(entry);
    return { entry, parent };
  }

  /** Closes every open record (at the end of the file, or of an artifact's records). */
  finish(): void {
    while (this.stack.length > 0) this.closed(this.stack.pop()!);
    this.path = undefined;
  }
}
