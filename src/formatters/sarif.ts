import type { Log, Notification, ReportingDescriptor, Result } from "sarif";
import { plural } from "../core/text.js";
import { omittedReason, repositoryPath, shownProblems, type Formatter } from "./types.js";

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
 * line and column, and the JSON Pointer as a property. Unreadable files are tool notifications (errors), and so are
 * the problems --max-problems left out (a warning per file, counting them).
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
  const notifications: Notification[] = report.files
    .filter((f) => f.error !== undefined)
    .map((f) => ({
      level: "error" as const,
      message: { text: f.error! },
      locations: [{ physicalLocation: { artifactLocation: location(f.path) } }],
    }));
  for (const file of report.files) {
    const { shown, omitted, omittedErrors } = shownProblems(file, maxProblems);
    // A log without some of the results must say so: a dashboard would show the file as having only those shown.
    if (omitted > 0)
      notifications.push({
        level: "warning",
        message: {
          text: `${plural(omitted, "more problem")} in this file not shown (${plural(omittedErrors, "error")}, ${plural(omitted - omittedErrors, "warning")}): ${omittedReason(shown.length, maxProblems)}`,
        },
        locations: [{ physicalLocation: { artifactLocation: location(file.path) } }],
        properties: { problemsOmitted: omitted, errorsOmitted: omittedErrors },
      });
    for (const p of shown) {
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
            // The tool did its work unless a file could not be read; problems left out are a notification, no failure.
            executionSuccessful: report.files.every((f) => f.error === undefined),
            toolExecutionNotifications: notifications,
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
