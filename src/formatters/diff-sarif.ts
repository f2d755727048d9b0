import type { Log, ReportingDescriptor, Result } from "sarif";
import { CHANGE_KIND_DESCRIPTIONS, CHANGE_KINDS, classOf } from "../core/diff/diff.js";
import { changeLevel, type DiffFormatter, newSidePath, summaryLine } from "./diff-common.js";
import { SARIF_URI_BASE } from "./sarif.js";
import { repositoryPath } from "./types.js";

/**
 * SARIF 2.1.0: every change kind as a reporting descriptor (breaking kinds default to error, additive
 * to note), one result per change on the new file (with the record's line where there is one and the
 * citation address as a logical location), approved changes carrying an external suppression with
 * the approval's reason, and the warnings as tool notifications.
 */
export const formatDiffSarif: DiffFormatter = (report, { toolVersion, cwdInRepository }) => {
  const location = (shown: string) => {
    const { path, inRepository } = repositoryPath(shown, cwdInRepository); // from the repository root, which code scanning maps
    return { uri: encodeURI(path), ...(inRepository ? { uriBaseId: SARIF_URI_BASE } : {}) };
  };
  const rules: ReportingDescriptor[] = CHANGE_KINDS.map((kind) => ({
    id: kind,
    shortDescription: { text: CHANGE_KIND_DESCRIPTIONS[kind] },
    help: { text: `A ${classOf(kind)} change (docs/spec.md, section 12, in the citation-targets package).` },
    defaultConfiguration: { level: classOf(kind) === "breaking" ? "error" : "note" },
    properties: { class: classOf(kind) },
  }));
  const index = new Map<string, number>(CHANGE_KINDS.map((kind, i) => [kind, i]));
  const results: Result[] = [];
  for (const pair of report.pairs) {
    const file = pair.newMissing ? pair.old.replace(/^[^:]*:(?=[^/])/, "") : newSidePath(pair, report);
    for (const change of pair.changes) {
      const region =
        change.file === pair.new && change.line !== undefined ? { region: { startLine: change.line } } : {};
      const { kind, class: cls, message, approved, file: _file, line: _line, ...rest } = change;
      results.push({
        ruleId: kind,
        ruleIndex: index.get(kind)!,
        level: changeLevel(change, report),
        message: { text: message },
        locations: [
          {
            physicalLocation: { artifactLocation: location(file), ...region },
            ...(change.address !== undefined
              ? { logicalLocations: [{ fullyQualifiedName: change.address, kind: "element" }] }
              : {}),
          },
        ],
        ...(approved ? { suppressions: [{ kind: "external" as const, justification: approved.reason }] } : {}),
        properties: { class: cls, ...rest },
      });
    }
  }
  const warnings = [...report.pairs.flatMap((pair) => pair.warnings), ...report.warnings];
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "citation-targets", ...(toolVersion ? { version: toolVersion } : {}), rules } },
        results,
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: warnings.map((text) => ({ level: "warning" as const, message: { text } })),
          },
        ],
        properties: {
          summary: report.summary,
          summaryText: summaryLine(report),
          ...(report.against ? { against: report.against } : {}),
          ...(report.to ? { to: report.to } : {}),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
