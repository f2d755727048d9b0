import { defineRule, updateCommand } from "./define.js";

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
  },
  create(context) {
    return {
      end() {
        const lock = context.lock!;
        if (lock.manifest.datasetDigest !== lock.computedDigest) {
          context.report({
            messageId: "stale",
            data: {
              manifest: lock.manifestPath,
              recorded: lock.manifest.datasetDigest,
              computed: lock.computedDigest,
              fix: updateCommand(context),
            },
            line: 0,
            pointer: "",
          });
        }
      },
    };
  },
});
