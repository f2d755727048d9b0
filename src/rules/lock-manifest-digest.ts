import { defineRule, pairFix, pairSlugConflict, updateCommand } from "./define.js";

export const lockManifestDigest = defineRule({
  id: "lock-manifest-digest",
  scope: "manifest",
  meta: {
    description:
      "The lock manifest's datasetDigest equals the digest of its own content (it is not stale or hand-edited).",
    defaultSeverity: "error",
  },
  messages: {
    stale:
      "lock manifest {{manifest}} records datasetDigest {{recorded}} but its content digests to {{computed}} (it was edited by hand): run {{fix}} to refresh it and regenerate",
    slugEdited:
      'lock manifest {{manifest}} records datasetDigest {{recorded}} but its content digests to {{computed}}: its slug "{{slug}}" was edited by hand (the pair is named {{name}}, which update would keep: a JSONL is named after its slug); {{fix}}',
  },
  create(context) {
    return {
      end() {
        const lock = context.lock!;
        if (lock.manifest.datasetDigest !== lock.computedDigest) {
          // A slug edited by hand: update refuses it (the pair would be misnamed), so the fix is the pair's.
          const conflict = pairSlugConflict(context);
          context.report({
            messageId: conflict !== undefined ? "slugEdited" : "stale",
            data: {
              manifest: lock.manifestPath,
              recorded: lock.manifest.datasetDigest,
              computed: lock.computedDigest,
              ...(conflict !== undefined
                ? { slug: conflict.slug, name: conflict.name, fix: pairFix(context, conflict) }
                : { fix: updateCommand(context) }),
            },
            line: 0,
            pointer: "",
          });
        }
      },
    };
  },
});
