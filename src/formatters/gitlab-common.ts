/**
 * GitLab's Code Quality report (README, "GitLab"; docs/spec.md, section 15): a JSON array of issues, each with a
 * description, a check name, a fingerprint, a severity and a location (a path from the repository root and a line).
 * The fingerprint is a SHA-256 of the check, the path and the place in the file (line and pointer), with an
 * occurrence number added only when the same check is at the same place twice: the same report gives the same
 * fingerprints, and no two issues of a report share one. Pure.
 */
import { sha256Hex } from "../core/bytes.js";

export type CodeQualitySeverity = "info" | "minor" | "major" | "critical" | "blocker";

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: CodeQualitySeverity;
  location: { path: string; lines: { begin: number } };
}

/** An issue before its fingerprint: `place` names where in the file it is (a line, a pointer, an address). */
export interface CodeQualityEntry {
  description: string;
  check: string;
  severity: CodeQualitySeverity;
  path: string;
  /** 1-based; a problem of the file as a whole is placed on line 1 (GitLab needs a line). */
  line: number;
  place: string;
}

/** The report's text: the issues in the order given, each with its fingerprint. */
export function renderCodeQuality(entries: readonly CodeQualityEntry[]): string {
  const seen = new Map<string, number>();
  const issues: CodeQualityIssue[] = entries.map((entry) => {
    const key = `${entry.check}\u0000${entry.path}\u0000${entry.place}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return {
      description: entry.description,
      check_name: entry.check,
      fingerprint: sha256Hex(occurrence === 0 ? key : `${key}\u0000${occurrence}`),
      severity: entry.severity,
      location: { path: entry.path, lines: { begin: Math.max(1, entry.line) } },
    };
  });
  return `${JSON.stringify(issues, null, 2)}\n`;
}
