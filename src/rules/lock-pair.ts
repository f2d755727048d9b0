import { defineRule, pairFix, pairSlugConflict } from "./define.js";

/**
 * A JSONL and its lock manifest are one pair, named after one slug: `<slug>.jsonl` and
 * `<slug>.lock.json`. The file's end checks the manifest in force names this file's slug; a
 * manifest of the folders checked whose JSONL is gone (`git rm` of a published file) is reported
 * on the manifest by the run (node/validate/validate.ts), under this rule's id.
 */
export const lockPair = defineRule({
  id: "lock-pair",
  scope: "manifest",
  meta: {
    description:
      "A JSONL and its lock manifest are a pair named after one slug: the manifest names this file's slug, and no manifest of the folders checked is without its JSONL.",
    defaultSeverity: "error",
  },
  messages: {
    otherSlug:
      'lock manifest {{manifest}} names slug "{{slug}}", so its JSONL is "{{expected}}", not "{{fileName}}": a manifest and its JSONL share one slug (was the slug edited in the manifest, or the file renamed?): {{fix}}',
    withoutJsonl:
      'lock manifest {{manifest}} has no JSONL: "{{expected}}" is not there (deleted?): run `citation-targets update {{manifest}}` to generate it again, or remove the manifest too if the dataset is withdrawn',
  },
  create(context) {
    return {
      end() {
        const lock = context.lock!;
        // Only a manifest found beside the file (<name>.lock.json) is held to the file's name; one given with --lock
        // may serve any file.
        const conflict = pairSlugConflict(context);
        if (conflict !== undefined)
          context.report({
            messageId: "otherSlug",
            data: {
              manifest: lock.manifestPath,
              slug: lock.manifest.slug,
              expected: `${lock.manifest.slug}.jsonl`,
              fileName: context.fileName,
              fix: pairFix(context, conflict),
            },
            line: 0,
            pointer: "",
          });
      },
    };
  },
});
