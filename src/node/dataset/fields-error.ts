/**
 * What `lock()` throws when the dataset fields given are not what a manifest may hold (docs/spec.md, "Lock manifest"),
 * and each field's command-line flag, by which the problems are said. A module of its own: the library exports the
 * class, and importing the library must load none of the commands' modules (bench/RESULTS.md, start-up).
 */
import { type FieldProblem, shownFieldValue } from "../../core/lock/dataset-fields.js";
import type { ManifestDatasetField } from "../../core/model.js";
import { OperationalError } from "../errors.js";

/** How the caller gave each dataset field, for the messages that name it. */
export type FieldNames = Record<ManifestDatasetField, string>;

/** The command-line flag of each dataset field (lock, update and adopt name them so). */
export const FLAG: FieldNames = {
  slug: "--slug",
  titleId: "--title-id",
  name: "--name",
  versionDate: "--version-date",
  sourceTextUrl: "--source-text-url",
};

/** The library's option of each dataset field (`lock({ titleId })`): the field's own name. */
export const OPTION: FieldNames = {
  slug: "slug",
  titleId: "titleId",
  name: "name",
  versionDate: "versionDate",
  sourceTextUrl: "sourceTextUrl",
};

/**
 * The dataset fields given are not what a manifest may hold: each problem names the field as the caller gave it (its
 * flag from the command line, its option through the library).
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
    names: FieldNames = FLAG,
  ) {
    super(
      [
        ...problems.map((p) => `${names[p.field]} ${shownFieldValue(p)}: ${p.message}`),
        ...(missing ? [missing] : []),
      ].join("\n"),
    );
  }
}
