/**
 * What `lock()` throws when the dataset fields given are not what a manifest may hold (docs/spec.md, "Lock manifest"),
 * and each field's command-line flag, by which the problems are said. A module of its own: the library exports the
 * class, and importing the library must load none of the commands' modules (bench/RESULTS.md, start-up).
 */
import type { FieldProblem } from "../../core/lock/dataset-fields.js";
import type { ManifestDatasetField } from "../../core/model.js";
import { OperationalError } from "../errors.js";

/** The command-line flag of each dataset field (lock, update and adopt name them so). */
export const FLAG: Record<ManifestDatasetField, string> = {
  slug: "--slug",
  titleId: "--title-id",
  name: "--name",
  versionDate: "--version-date",
  sourceTextUrl: "--source-text-url",
};

/**
 * The dataset fields given are not what a manifest may hold: each problem names the field (and, from the command line,
 * its flag).
 */
export class FieldsError extends OperationalError {
  override name = "FieldsError";
  /**
   * `missing`: a line more, for fields neither given nor in a manifest to refresh, said with the others (lock of a new
   * dataset), so that one run names every field to fix.
   */
  constructor(
    readonly problems: FieldProblem[],
    missing?: string,
  ) {
    super(
      [
        ...problems.map((p) => `${FLAG[p.field]} ${JSON.stringify(p.value)}: ${p.message}`),
        ...(missing ? [missing] : []),
      ].join("\n"),
    );
  }
}
