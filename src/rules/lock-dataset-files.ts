import { shellQuote } from "../core/text.js";
import { defineRule, updateCommand } from "./define.js";

export const lockDatasetFiles = defineRule({
  id: "lock-dataset-files",
  scope: "manifest",
  meta: {
    description:
      "The dataset folder is there and holds exactly the manifest's artifacts: none missing (deleted or renamed), no markdown file the manifest does not list or ignore (new or renamed), and no other repository (a git submodule).",
    defaultSeverity: "error",
  },
  messages: {
    folderMissing:
      "the dataset folder {{root}} (datasetRoot of lock manifest {{manifest}}) is not there (moved or deleted?), so none of its artifacts can be checked: restore it, or point the manifest at its new place with `citation-targets adopt --move NEW-FOLDER` (or `citation-targets lock NEW-FOLDER -o {{manifest}}`); a checkout without the datasets says so with --no-artifacts",
    fileMissing:
      "the dataset file {{root}} (datasetRoot of lock manifest {{manifest}}) is not there (moved or deleted?), so it cannot be checked: restore it, or point the manifest at its new place with `citation-targets adopt --move NEW-FILE` (or `citation-targets lock NEW-FILE -o {{manifest}}`); a checkout without the datasets says so with --no-artifacts",
    folderNotFolder:
      "the dataset folder {{root}} (datasetRoot of lock manifest {{manifest}}) {{absence}}, so none of its artifacts can be checked: a dataset root is a folder of markdown files or one markdown file; put the law there, or point the manifest at where it is with `citation-targets adopt --move NEW-FOLDER`",
    fileNotFile:
      "the dataset file {{root}} (datasetRoot of lock manifest {{manifest}}) {{absence}}, so it cannot be checked: put the law's markdown file there, or point the manifest at where it is with `citation-targets adopt --move NEW-FILE`",
    missing:
      'artifact "{{path}}" is in lock manifest {{manifest}} but not in the dataset folder {{root}} (deleted or renamed?): run {{fix}} to refresh the lock and regenerate this file',
    unlisted:
      'markdown file "{{path}}" in the dataset folder {{root}} is not in lock manifest {{manifest}} (new or renamed?): run {{fix}} to add it, or leave it out with {{ignore}}',
    repository:
      "folder \"{{path}}\" in the dataset folder {{root}} is a git submodule (or another repository), not an artifact: its files are not the dataset's and lock refuses it; move it out of the dataset folder, or leave it out with `citation-targets lock --ignore '{{path}}/**'`",
    unlistedNotNfc:
      'markdown file "{{path}}" in the dataset folder {{root}} is not in lock manifest {{manifest}}, and its name is not in Unicode NFC, which lock and update refuse: rename it to its NFC form ("{{nfc}}"), then run {{fix}} to add it',
  },
  create(context) {
    return {
      end() {
        const lock = context.lock!;
        if (lock.datasetFolderMissing !== undefined) {
          // A datasetRoot that names one markdown file (docs/spec.md, section 8, "One-file datasets").
          const file = lock.datasetFolderMissing.endsWith(".md");
          const absence = lock.datasetRootAbsence;
          context.report({
            messageId:
              absence === undefined
                ? file
                  ? "fileMissing"
                  : "folderMissing"
                : file
                  ? "fileNotFile"
                  : "folderNotFolder",
            data: { root: lock.datasetFolderMissing, manifest: lock.manifestPath, absence: absence ?? "" },
            line: 0,
            pointer: "",
          });
          return;
        }
        if (lock.datasetRoot === undefined) return;
        const data = { manifest: lock.manifestPath, root: lock.datasetRoot, fix: updateCommand(context) };
        for (const path of lock.missingArtifacts)
          context.report({ messageId: "missing", data: { ...data, path }, line: 0, pointer: "" });
        for (const path of lock.repositories ?? [])
          context.report({ messageId: "repository", data: { ...data, path }, line: 0, pointer: "" });
        for (const path of lock.unlistedFiles) {
          // A name update would refuse gets the step before update (docs/spec.md, section 6: paths are NFC).
          const nfc = path.normalize("NFC");
          if (nfc !== path)
            context.report({ messageId: "unlistedNotNfc", data: { ...data, path, nfc }, line: 0, pointer: "" });
          else
            context.report({
              messageId: "unlisted",
              // The lock that keeps the manifest's fields and adds the ignore (lock's --ignore is a glob from the folder).
              data: {
                ...data,
                path,
                ignore: `\`citation-targets lock ${shellQuote(lock.datasetRoot)} --ignore ${shellQuote(path.replace(/([\\*?[\]{}()!])/g, "\\$1"))} -o ${shellQuote(lock.manifestPath)}\``,
              },
              line: 0,
              pointer: "",
            });
        }
      },
    };
  },
});
