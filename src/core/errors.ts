/** What an error says: its message, or the value thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The closing line of a run that writes all or nothing and wrote nothing (update, adopt): said after the faults. */
export const NOTHING_WRITTEN = "nothing was written";

/**
 * A dataset that cannot be generated; `problems` names each file or path at fault. `closing`: a line said after them,
 * no fault of its own (update's `nothing was written`).
 */
export class DatasetError extends Error {
  override name = "DatasetError";
  constructor(
    readonly problems: string[],
    readonly closing?: string,
  ) {
    super([...problems, ...(closing !== undefined ? [closing] : [])].join("\n"));
  }
}
