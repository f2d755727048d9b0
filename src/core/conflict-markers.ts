/**
 * Git's merge conflict markers in a generated file (a JSONL or a lock manifest merged by git with both sides changed):
 * such a file is never merged by hand, so every command says what to do instead of where its JSON breaks.
 */

/**
 * A line that is a conflict marker: `<<<<<<<`, `=======`, `>>>>>>>` or `|||||||` (the base, with merge.conflictStyle
 * diff3 or zdiff3), alone or followed by a space and a label.
 */
const MARKER = /^(?:<{7}|={7}|>{7}|\|{7})(?:[ \t]|\r?$)/;

/** True when the line is a conflict marker. */
export function isConflictMarker(line: string): boolean {
  return MARKER.test(line);
}

/** The 1-based numbers of the text's lines that are conflict markers (at most `limit` of them). */
export function conflictMarkerLines(text: string, limit = 6): number[] {
  const lines: number[] = [];
  let start = 0;
  for (let number = 1; start <= text.length && lines.length < limit; number++) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (isConflictMarker(line)) lines.push(number);
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/** What to do about a generated file (a lock manifest or a JSONL) git left in conflict. */
export const CONFLICT_ADVICE =
  "generated files are not merged by hand: take one side of the lock manifest and its JSONL (git checkout --ours -- FILES, or --theirs), then run citation-targets update, which locks and generates the merged markdown again";
