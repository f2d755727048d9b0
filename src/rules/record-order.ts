import { folderChain } from "../core/paths.js";
import { defineRule, isMarkdownArtifact, isStructuralContainer, stringField } from "./define.js";

export const recordOrder = defineRule({
  id: "record-order",
  scope: "dataset",
  meta: {
    description:
      "Records read like a table of contents: each container immediately before its first descendant, each folder's records together, each artifact's targets together.",
    defaultSeverity: "error",
  },
  messages: {
    childless:
      'the container of "{{folder}}" (line {{containerLine}}) is not followed by a descendant: expected its first descendant right after it',
    folderSplit:
      'record inside folder "{{folder}}", which the file left on line {{leftLine}}: expected each folder\'s records together',
    artifactSplit:
      'target of "{{path}}", whose targets stopped on line {{lastLine}}: expected each artifact\'s targets together',
  },
  create(context) {
    let pending: { folder: string; line: number } | undefined;
    let chain: string[] = [];
    const left = new Map<string, number>();
    const artifactsEnded = new Map<string, number>();
    let artifact: { path: string; line: number } | undefined;
    const reportChildless = () => {
      if (pending)
        context.report({
          messageId: "childless",
          data: { folder: pending.folder, containerLine: pending.line },
          line: pending.line,
          pointer: "",
        });
    };
    return {
      // A line that is not a record (too long, too deep, not JSON…) may be the container's descendant: not "childless"
      // then.
      skipped() {
        pending = undefined;
      },
      record({ record, line }) {
        const path = stringField(record, "artifactRelativePath");
        if (path === undefined || (!isStructuralContainer(record) && !isMarkdownArtifact(record))) return;
        const here = isStructuralContainer(record) ? [...folderChain(path), path] : folderChain(path);
        if (pending && !here.includes(pending.folder)) reportChildless();
        pending = isStructuralContainer(record) ? { folder: path, line } : undefined;
        for (const folder of chain) if (!here.includes(folder) && !left.has(folder)) left.set(folder, line - 1);
        const reentered = here.find((folder) => left.has(folder));
        if (reentered !== undefined) {
          context.report({
            messageId: "folderSplit",
            data: { folder: reentered, leftLine: left.get(reentered) },
            line,
            pointer: "/artifactRelativePath",
          });
          for (const folder of here) left.delete(folder);
        }
        chain = here;
        if (isMarkdownArtifact(record)) {
          if (artifact && artifact.path !== path) artifactsEnded.set(artifact.path, artifact.line);
          const ended = artifactsEnded.get(path);
          if (ended !== undefined) {
            context.report({
              messageId: "artifactSplit",
              data: { path, lastLine: ended },
              line,
              pointer: "/artifactRelativePath",
            });
            artifactsEnded.delete(path);
          }
          artifact = { path, line };
        }
      },
      end: reportChildless,
    };
  },
});
