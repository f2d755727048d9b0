/**
 * What a validate run reports: the shape every formatter renders (the JSON contract of docs/spec.md is drawn from it).
 */
import type { Problem, Severity } from "./problem.js";

export interface FileReport {
  path: string;
  records: number;
  problems: Problem[];
  /** Problems counted but not kept (more than 10,000 in the file). */
  unstored?: { errors: number; warnings: number };
  /** Set when the file could not be read; its problems are then incomplete. */
  error?: string;
  /** The lock manifest the file was checked against, as shown in messages. */
  lockManifest?: string;
  /** Why the artifact checks of the lock manifest were skipped (its dataset folder is not there), when they were. */
  artifactChecksSkipped?: string;
}

export interface Summary {
  files: number;
  records: number;
  errors: number;
  warnings: number;
}

/** Where the record schema came from. */
export interface SchemaSource {
  kind: "option" | "repository" | "bundled";
  /** The file the schema came from; absent for the bundled schema. */
  path?: string;
  legislationHost?: string;
  /** The host is a lock manifest's `legislationHost` (the schema of one dataset), not the run's. */
  fromManifest?: boolean;
}

/** A rule as formats that describe their rules show it (SARIF). */
export interface RuleDescriptor {
  id: string;
  description: string;
  defaultSeverity: Severity;
  /** Where the rule is documented, relative to the package root (docs/spec.md#rule-<id>). */
  docs: string;
}

export interface Report {
  files: FileReport[];
  summary: Summary;
  schemaSource: SchemaSource;
  /** Threads the files were checked in: 1, or this one and the worker threads. */
  threads: number;
  /** Every rule the run knows, in order. */
  rules: readonly RuleDescriptor[];
  /** Warnings left out by `onlyErrors` (--quiet), so that the summary can say so. */
  hiddenWarnings?: number;
}

/** Counts files, records, errors and warnings. */
export function summarize(files: readonly FileReport[]): Summary {
  let records = 0;
  let errors = 0;
  let warnings = 0;
  for (const file of files) {
    records += file.records;
    for (const problem of file.problems) problem.severity === "error" ? errors++ : warnings++;
    errors += file.unstored?.errors ?? 0;
    warnings += file.unstored?.warnings ?? 0;
  }
  return { files: files.length, records, errors, warnings };
}

/**
 * The report with warnings left out (--quiet): a new report, counted as if the warnings had never been found, with how
 * many were hidden.
 */
export function onlyErrors(report: Report): Report {
  const files = report.files.map((file) => ({
    ...file,
    problems: file.problems.filter((p) => p.severity === "error"),
    ...(file.unstored ? { unstored: { errors: file.unstored.errors, warnings: 0 } } : {}),
  }));
  return {
    ...report,
    files,
    summary: summarize(files),
    hiddenWarnings: report.summary.warnings + (report.hiddenWarnings ?? 0),
  };
}

/** 2 when a file could not be read, 1 when any error was found, else 0 (warnings alone pass). */
export function exitCodeFor(report: Report): 0 | 1 | 2 {
  if (report.files.some((file) => file.error !== undefined)) return 2;
  return report.summary.errors > 0 ? 1 : 0;
}
