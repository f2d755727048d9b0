import type { Log, ReportingDescriptor, Result } from "sarif";
import { shownProblems, type Formatter } from "./types.js";

/** Where the published package's files are served, so that a rule's helpUri opens its section of docs/spec.md for the version that reported it. */
const PACKAGE_FILES = "https://unpkg.com/citation-targets";

/**
 * SARIF 2.1.0, for code-scanning dashboards: one run, every registered rule as a reporting
 * descriptor (with its default level and documentation), one result per problem with the file,
 * line and column, and the JSON Pointer as a property. Unreadable files are tool notifications.
 */
export const formatSarif: Formatter = (report, { maxProblems, toolVersion }) => {
  const descriptors: ReportingDescriptor[] = report.rules.map((rule) => ({
    id: rule.id,
    shortDescription: { text: rule.description },
    help: { text: `See ${rule.docs} in the citation-targets package.` },
    helpUri: `${PACKAGE_FILES}@${toolVersion ?? "latest"}/${rule.docs}`,
    defaultConfiguration: { level: rule.defaultSeverity },
  }));
  const index = new Map<string, number>(report.rules.map((rule, i) => [rule.id, i]));
  const results: Result[] = [];
  for (const file of report.files) {
    for (const p of shownProblems(file, maxProblems).shown) {
      const region = p.line > 0 ? { region: { startLine: p.line, ...(p.column !== undefined ? { startColumn: p.column } : {}) } } : {};
      results.push({
        ruleId: p.ruleId,
        ...(index.has(p.ruleId) ? { ruleIndex: index.get(p.ruleId)! } : {}),
        level: p.severity,
        message: { text: p.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: encodeURI(p.file) }, ...region } }],
        properties: { pointer: p.pointer, messageId: p.messageId, ...(index.has(p.ruleId) ? {} : { unknownRule: true }) },
      });
    }
  }
  const unreadable = report.files.filter((f) => f.error !== undefined);
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "citation-targets", ...(toolVersion ? { version: toolVersion } : {}), rules: descriptors } },
        results,
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            toolExecutionNotifications: unreadable.map((f) => ({
              level: "error" as const,
              message: { text: f.error! },
              locations: [{ physicalLocation: { artifactLocation: { uri: encodeURI(f.path) } } }],
            })),
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
