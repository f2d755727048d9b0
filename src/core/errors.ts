/** What an error says: its message, or the value thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A dataset that cannot be generated; `problems` names each file or path at fault. */
/** The closing line of a run that writes all or nothing and wrote nothing (update, adopt): said after the faults. */
export const NOTHING_WRITTEN = "nothing was written";

export class DatasetError extends Error {
  override name = "DatasetError";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}
