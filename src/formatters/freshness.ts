/**
 * The CI formats of `update --check` and `generate --check` (README, "CI formats for freshness";
 * docs/spec.md, section 15): whether each dataset's manifest and JSONL are what the markdown makes.
 * `github`: an `::error` at the manifest of each dataset not up to date; `sarif`: one rule,
 * `not-up-to-date`, a result at each such manifest; `junit`: one case per dataset, named by its slug,
 * failed when it is not up to date; `gitlab`: GitLab's Code Quality report, a `major` issue `not-up-to-date` at the
 * manifest of each dataset not up to date. A dataset's warnings (update's: a new version's date not set, say) are said
 * at its manifest too, each in the format's way of a warning, and fail nothing: a `::warning`, a `warning` result of
 * the rule `update-warning`, a `minor` issue `update-warning`, lines `warning: …` in its case. Pure.
 */
import type { Log, Result } from "sarif";
import { type JunitCase, renderJunit } from "./junit-xml.js";
import { SARIF_URI_BASE } from "./sarif.js";
import { plural } from "../core/text.js";
import { repositoryPath } from "./types.js";
import { renderCodeQuality } from "./gitlab-common.js";

export const FRESHNESS_FORMATS = ["github", "sarif", "junit", "gitlab"] as const;
export type FreshnessFormat = (typeof FRESHNESS_FORMATS)[number];

/** One dataset checked: where it is, whether it is up to date, and the text report's lines for it. */
export interface FreshnessEntry {
  slug: string;
  /** The lock manifest and the JSONL, as shown (relative to the working directory). */
  manifest: string;
  output: string;
  upToDate: boolean;
  /** One line: what is stale (or that it is up to date). */
  message: string;
  /** The text report's lines for the dataset. */
  details: string[];
  /** The warnings of the dataset, as the text report says them on stderr (without `warning: `). */
  warnings: readonly string[];
}

/**
 * What brings the stale datasets up to date: a command; or, where no command may (`generate --check` of another
 * dataset's file, which regenerating would replace), what to do instead.
 */
export type FreshnessFix = { command: string } | { advice: string };

export interface FreshnessContext {
  /** `update --check` or `generate --check`. */
  command: string;
  fix: FreshnessFix;
  toolVersion?: string;
  cwdInRepository?: string;
}

/** The check name of a dataset's warning (gitlab's check, SARIF's rule). */
const WARNING_RULE = "update-warning";

const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** The fix as the last line of a stale dataset's message: `fix: <command>`, or the advice as the text report's hint. */
const fixLine = (fix: FreshnessFix) => ("command" in fix ? `fix: ${fix.command}` : `hint: ${fix.advice}`);

/** The last line of each format: how many datasets, how many are stale. */
function summary(entries: readonly FreshnessEntry[], context: FreshnessContext): string {
  const stale = entries.filter((entry) => !entry.upToDate).length;
  const { fix } = context;
  return stale === 0
    ? `✔ ${plural(entries.length, "dataset")} up to date (${context.command})`
    : `✖ ${stale} of ${plural(entries.length, "dataset")} not up to date (${context.command}): ${"command" in fix ? `run \`${fix.command}\`` : fix.advice}`;
}

export function formatFreshness(
  format: FreshnessFormat,
  entries: readonly FreshnessEntry[],
  context: FreshnessContext,
): string {
  const where = (shown: string) => repositoryPath(shown, context.cwdInRepository);
  if (format === "github") {
    const out = entries.flatMap((entry) => {
      const file = escapeProperty(where(entry.manifest).path);
      return [
        ...(entry.upToDate
          ? []
          : [
              `::error file=${file},title=${escapeProperty(`not up to date: ${entry.slug}`)}::${escapeData(
                [entry.message, ...entry.details, fixLine(context.fix)].join("\n"),
              )}`,
            ]),
        ...entry.warnings.map(
          (warning) =>
            `::warning file=${file},title=${escapeProperty(`warning: ${entry.slug}`)}::${escapeData(warning)}`,
        ),
      ];
    });
    out.push(summary(entries, context));
    return `${out.join("\n")}\n`;
  }
  if (format === "gitlab")
    return renderCodeQuality(
      entries.flatMap((entry) => {
        const path = where(entry.manifest).path;
        return [
          ...(entry.upToDate
            ? []
            : [
                {
                  description: [`${entry.slug}: ${entry.message}`, ...entry.details, fixLine(context.fix)].join("\n"),
                  check: "not-up-to-date",
                  severity: "major" as const,
                  path,
                  line: 1,
                  place: entry.slug,
                },
              ]),
          // A warning says its slug first (update's words); its text is its place, so each has a fingerprint of its own.
          ...entry.warnings.map((warning) => ({
            description: warning,
            check: WARNING_RULE,
            severity: "minor" as const,
            path,
            line: 1,
            place: warning,
          })),
        ];
      }),
    );
  if (format === "junit") {
    // JUnit has no warnings: they are lines of the dataset's case, in its failure (which CI shows) or its output.
    const cases: JunitCase[] = entries.map((entry) => {
      const warnings = entry.warnings.map((warning) => `warning: ${warning}`);
      return {
        classname: entry.manifest,
        name: entry.slug,
        ...(entry.upToDate
          ? { output: [...entry.details, ...warnings].join("\n") }
          : {
              failure: {
                type: "not-up-to-date",
                message: entry.message,
                body: [...entry.details, ...warnings, fixLine(context.fix)].join("\n"),
              },
            }),
      };
    });
    return renderJunit(`citation-targets ${context.command}`, [{ name: context.command, cases }]);
  }
  const results: Result[] = entries.flatMap((entry) => {
    const { path, inRepository } = where(entry.manifest);
    const locations = [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeURI(path), ...(inRepository ? { uriBaseId: SARIF_URI_BASE } : {}) },
        },
        logicalLocations: [{ fullyQualifiedName: entry.slug, kind: "module" }],
      },
    ];
    return [
      ...(entry.upToDate
        ? []
        : [
            {
              ruleId: "not-up-to-date",
              ruleIndex: 0,
              level: "error" as const,
              message: { text: `${entry.message} (${fixLine(context.fix)})` },
              locations,
              properties: { slug: entry.slug, output: where(entry.output).path, details: entry.details },
            },
          ]),
      ...entry.warnings.map((warning) => ({
        ruleId: WARNING_RULE,
        ruleIndex: 1,
        level: "warning" as const,
        message: { text: warning },
        locations,
        properties: { slug: entry.slug },
      })),
    ];
  });
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "citation-targets",
            ...(context.toolVersion ? { version: context.toolVersion } : {}),
            rules: [
              {
                id: "not-up-to-date",
                shortDescription: {
                  text: "a dataset's lock manifest or JSONL is not what its markdown makes: regenerate it",
                },
                defaultConfiguration: { level: "error" },
              },
              // Listed when a result is of it (update's warnings; generate --check has none), so that its index holds.
              ...(results.some((result) => result.ruleId === WARNING_RULE)
                ? [
                    {
                      id: WARNING_RULE,
                      shortDescription: {
                        text: "update warns of a dataset (a new version's date not set, or set back): check it; it fails nothing",
                      },
                      defaultConfiguration: { level: "warning" as const },
                    },
                  ]
                : []),
            ],
          },
        },
        results,
        properties: { command: context.command, summaryText: summary(entries, context) },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
