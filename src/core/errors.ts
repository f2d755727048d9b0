/** What an error says: its message, or the value thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The closing line of a run that writes all or nothing and wrote nothing (update, adopt): said after the faults. */
export const NOTHING_WRITTEN = "nothing was written";

/**
 * A dataset that cannot be generated; `problems` names each file or path at fault. `closing`: a line said after them,
 * no fault of its own (update's `nothing was written`). `unreadable`: a file among them is there but could not be read
 * (not a regular file, a link out of the dataset, permission denied, an I/O error): no fault of the dataset's content
 * but of the checkout, which the CLI tells apart by its exit code (2, where the dataset's faults are 1).
 */
export class DatasetError extends Error {
  override name = "DatasetError";
  constructor(
    readonly problems: string[],
    readonly closing?: string,
    readonly unreadable = false,
  ) {
    super([...problems, ...(closing !== undefined ? [closing] : [])].join("\n"));
  }

  /** The same error, each problem said in other words (naming the dataset first, say). */
  reworded(say: (problem: string) => string): DatasetError {
    return new DatasetError(this.problems.map(say), this.closing, this.unreadable);
  }
}
