/** A dataset that cannot be generated; `problems` names each file or path at fault. */
export class DatasetError extends Error {
  override name = "DatasetError";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}
