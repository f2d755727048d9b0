import type { Log, ReportingDescriptor, Result } from "sarif";
import { repositoryPath, shownProblems, type Formatter } from "./types.js";

/**
 * The base SARIF's uris are relative to: the repository root (a consumer such as GitHub code scanning maps it to its
 * checkout).
 */
export const SARIF_URI_BASE = "%SRCROOT%";

/**
 * package.json's `repository` as an https address to link to ("git+https://github.com/o/r.git" →
 * "https://github.com/o/r"); undefined when it names none.
 */
export function publicRepositoryUrl(repository: unknown): string | undefined {
  const url = typeof repository === "string" ? repository : (repository as { url?: unknown } | undefined)?.url;
  if (typeof url !== "string") return undefined;
  const github = /^github:([\w.-]+\/[\w.-]+)$/.exec(url) ?? /^([\w.-]+\/[\w.-]+)$/.exec(url);
  if (github) return `https://github.com/${github[1]!.replace(/\.git$/, "")}`;
  const https = /^(?:git\+)?(https:\/\/[^\s#]+?)(?:\.git)?\/?$/.exec(url);
  return https?.[1];
}

/**
 * SARIF 2.1.0, for code-scanning dashboards: one run, every registered rule as a reporting
 * descriptor (with its default level and documentation), one result per problem with the file,
 * line and column, and the JSON Pointer as a property. Unreadable files are tool notifications.
 */
export const formatSarif: Formatter = (report, { maxProblems, toolVersion, cwdInRepository, repositoryUrl }) => {
  const descriptors: ReportingDescriptor[] = report.rules.map((rule) => ({
    id: rule.id,
    shortDescription: { text: rule.description },
    help: { text: `See ${rule.docs} in the citation-targets package.` },
    // Only where the documentation is known to be published: the package's repository, when package.json names one.
    ...(repositoryUrl !== undefined ? { helpUri: `${repositoryUrl}/blob/HEAD/${rule.docs}` } : {}),
    defaultConfiguration: { level: rule.defaultSeverity },
  }));
  const location = (shown: string) => {
    const { path, inRepository } = repositoryPath(shown, cwdInRepository);
    return { uri: encodeURI(path), ...(inRepository ? { uriBaseId: SARIF_URI_BASE } : {}) };
  };
  const index = new Map<string, number>(report.rules.map((rule, i) => [rule.id, i]));
  const results: Result[] = [];
  for (const file of report.files) {
    for (const p of shownProblems(file, maxProblems).shown) {
      const region =
        p.line > 0
          ? { region: { startLine: p.line, ...(p.column !== undefined ? { startColumn: p.column } : {}) } }
          : {};
      results.push({
        ruleId: p.ruleId,
        ...(index.has(p.ruleId) ? { ruleIndex: index.get(p.ruleId)! } : {}),
        level: p.severity,
        message: { text: p.message },
        locations: [{ physicalLocation: { artifactLocation: location(p.file), ...region } }],
        properties: {
          pointer: p.pointer,
          messageId: p.messageId,
          ...(p.repeated ? { repeated: p.repeated } : {}),
          ...(index.has(p.ruleId) ? {} : { unknownRule: true }),
        },
      });
    }
  }
  const unreadable = report.files.filter((f) => f.error !== undefined);
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: { name: "citation-targets", ...(toolVersion ? { version: toolVersion } : {}), rules: descriptors },
        },
        results,
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            toolExecutionNotifications: unreadable.map((f) => ({
              level: "error" as const,
              message: { text: f.error! },
              locations: [{ physicalLocation: { artifactLocation: location(f.path) } }],
            })),
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
