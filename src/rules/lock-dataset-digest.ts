import { defineRule, pairFix, pairSlugConflict, regenerateCommand, stringField } from "./define.js";

export const lockDatasetDigest = defineRule({
  id: "lock-dataset-digest",
  scope: "manifest",
  meta: {
    description: "Records carry the datasetDigest of the lock manifest they were generated from.",
    defaultSeverity: "error",
  },
  messages: {
    mismatch:
      "datasetDigest is {{actual}} but lock manifest {{manifest}} has {{expected}}: the manifest changed since this file was generated; regenerate it with {{fix}}",
    edited:
      "datasetDigest is {{actual}} but lock manifest {{manifest}} has {{expected}}, as {{others}}: this record was edited by hand; regenerate the file with {{fix}}",
    slugEdited:
      'datasetDigest is {{actual}} but lock manifest {{manifest}} has {{expected}}: the manifest was locked with slug "{{slug}}" since this file was generated, but the pair is named {{name}} (a JSONL is named after its slug, so regenerating this file would not do); {{fix}}',
  },
  create(context) {
    /** The first record whose digest is not the manifest's (said once, at the end of the file). */
    let first: { line: number; actual: string } | undefined;
    /** Records that carry the manifest's digest: any at all, and the first differs by a hand edit, not a new manifest. */
    let matching = 0;
    return {
      record({ record, line }) {
        const actual = stringField(record, "datasetDigest");
        if (actual === undefined) return;
        if (actual === context.lock!.manifest.datasetDigest) matching++;
        else first ??= { line, actual }; // dataset-fields already reports records that disagree with each other
      },
      end() {
        if (first === undefined) return;
        // The manifest's slug is not the pair's name: regenerating this file under its name would not be accepted.
        const conflict = pairSlugConflict(context);
        context.report({
          messageId: conflict !== undefined ? "slugEdited" : matching > 0 ? "edited" : "mismatch",
          data: {
            actual: first.actual,
            expected: context.lock!.manifest.datasetDigest,
            manifest: context.lock!.manifestPath,
            fix: conflict !== undefined ? pairFix(context, conflict) : regenerateCommand(context),
            ...conflict,
            others:
              matching === 1
                ? "the 1 other record of this file carries"
                : `the ${matching} other records of this file carry`,
          },
          line: first.line,
          pointer: "/datasetDigest",
        });
      },
    };
  },
});
