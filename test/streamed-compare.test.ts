/**
 * `update` of a large dataset compares the lines it generates with the file's bytes as they stream, and by record only
 * from where they differ (src/node/update/streamed-compare.ts): whatever the file holds, the changes it reports are
 * those of comparing every record (readOldRecords and RecordComparer over all the new lines, as before), the bytes it
 * writes are the lines, and its digest is theirs.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../src/core/bytes.js";
import type { LineStep } from "../src/core/records/generate.js";
import { RecordComparer } from "../src/core/records/record-fingerprint.js";
import { readOldRecords } from "../src/node/records/record-changes.js";
import { compareStreamed } from "../src/node/update/streamed-compare.js";
import { openAtomic } from "../src/node/writes/write.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

/** A record line: its address and a text (umlauts and quotes, so that lines are not plain ASCII). */
const line = (address: string, text: string) =>
  `${JSON.stringify({ citationAddress: `law/index.md#${address}`, markdown: text })}\n`;

/** The lines as steps of the generator, a line each (as its containers' lines are given). */
async function* batches(lines: readonly string[]): AsyncGenerator<LineStep> {
  for (const line of lines) yield { line };
}

const readError = (error: unknown) => new Error(`read failed: ${(error as Error).message}`);

/** What comparing every record says (the way before the shortcut). */
async function byRecord(path: string, lines: readonly string[]) {
  const comparer = new RecordComparer(await readOldRecords(path));
  for (const text of lines) comparer.add(JSON.parse(text) as Record<string, unknown>);
  return comparer.finish();
}

const address = fc.constantFrom("§-1", "§-2", "§-2/abs-1", "§-3", "art-4", "§-5a", "§-6", "§-7");
const text = fc.constantFrom("Wer „vorsätzlich“ handelt.", 'Ein "Zitat".', "Text", "Änderung", "");
/** New lines: unique addresses, in a random order. */
const newLines = fc
  .uniqueArray(fc.tuple(address, text), { selector: ([a]) => a, maxLength: 8 })
  .map((pairs) => pairs.map(([a, t]) => line(a, t)));

/** The old file: the new lines, edited (a line changed, dropped, added, repeated, CR LF, a line that is no record). */
const edit = fc.constantFrom("same", "change", "drop", "add", "repeat", "crlf", "garbage", "truncate");
const oldFrom = (lines: string[], edits: [string, number][]): string => {
  const old = [...lines];
  for (const [kind, n] of edits) {
    const at = old.length === 0 ? 0 : n % old.length;
    if (kind === "change" && old[at] !== undefined) old[at] = old[at]!.replace(/"markdown":"/, '"markdown":"x');
    else if (kind === "drop") old.splice(at, 1);
    else if (kind === "add") old.splice(at, 0, line(`§-${100 + n}`, "alt"));
    else if (kind === "repeat" && old[at] !== undefined) old.splice(at, 0, old[at]!.replace("markdown", "markdowm"));
    else if (kind === "crlf" && old[at] !== undefined) old[at] = old[at]!.replace(/\n$/, "\r\n");
    else if (kind === "garbage") old.splice(at, 0, "not a record\n");
  }
  const text = old.join("");
  return edits.some(([kind]) => kind === "truncate") ? text.slice(0, Math.floor(text.length / 2)) : text;
};

describe("compareStreamed", () => {
  test("reports what comparing every record reports, writes the lines and digests them, whatever the old file", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(newLines, fc.array(fc.tuple(edit, fc.nat(20)), { maxLength: 3 }), async (lines, edits) => {
        const path = join(dir, `old-${run}.jsonl`);
        const out = join(dir, `new-${run++}.jsonl`);
        const old = oldFrom(lines, edits);
        await writeFile(path, old);
        const file = await openAtomic(out);
        const result = await compareStreamed(batches(lines), path, file, readError);
        await file.commit();
        const written = lines.join("");
        expect(await readFile(out, "utf8")).toBe(written);
        expect(result.records).toBe(lines.length);
        expect(result.digest).toBe(sha256Hex(Buffer.from(written)));
        expect(result.changed).toBe(old !== written);
        const expected = await byRecord(path, lines);
        // No record change and no line dropped, yet other bytes (a line's CR LF): the first line that differs is named.
        const explained =
          expected.added.length + expected.removed.length + expected.changed.length > 0 ||
          expected.duplicates !== undefined ||
          expected.unreadable !== undefined;
        if (old !== written && !explained) {
          const [a, b] = [old.split(/(?<=\n)/), written.split(/(?<=\n)/)];
          let k = 0;
          while (k < a.length && a[k] === b[k]) k++;
          expected.firstDifferentLine = k + 1;
        }
        // A file with an address twice is compared by record from the start by the caller: undefined here.
        if (expected.duplicates !== undefined && old !== written) expect(result.changes).toBeUndefined();
        else expect(result.changes).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  test("no file there: every record added; a file that cannot be read: the error given, naming it", async () => {
    const lines = [line("§-1", "a"), line("§-2", "b")];
    const result = await compareStreamed(batches(lines), join(dir, "missing.jsonl"), undefined, readError);
    expect(result.changed).toBe(true);
    expect(result.changes).toEqual({
      before: 0,
      after: 2,
      added: ["law/index.md#§-1", "law/index.md#§-2"],
      removed: [],
      changed: [],
    });
    await expect(compareStreamed(batches(lines), dir, undefined, readError)).rejects.toThrow(/^read failed: /);
  });
});

describe("update of a dataset whose JSONL is compared as it streams (over 8 MiB)", () => {
  /** A law of 5,000 sections of about 1.4 KB each: about 11 MB of JSONL. */
  const law = () => {
    const sections: string[] = ["# Großes Gesetz\n"];
    for (let k = 1; k <= 5000; k++)
      sections.push(`## § ${k} Vorschrift ${k}\n\n${`Der „Text“ der Vorschrift ${k} über Änderungen. `.repeat(28)}\n`);
    return sections.join("\n");
  };

  test("up to date, then a line repeated by hand: the report says what comparing every record says", async () => {
    const { runBin } = await import("./helpers/bin.js");
    const { execFileSync } = await import("node:child_process");
    const { mkdir } = await import("node:fs/promises");
    const repo = join(dir, "big");
    await mkdir(join(repo, "law"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: repo });
    await writeFile(join(repo, "law/index.md"), law());
    const adopted = await runBin(
      [
        "adopt",
        "law",
        "--title-id",
        "GG",
        "--name",
        "Großes Gesetz",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.legislation.gov.au/GG/2024-01-01/text",
        "--no-cache",
      ],
      repo,
    );
    expect(adopted.code, adopted.stderr).toBe(0);
    const jsonl = join(repo, ".tooling/citation-targets/law.jsonl");
    const text = await readFile(jsonl, "utf8");
    expect(text.length).toBeGreaterThan(9 * 2 ** 20);
    const upToDate = await runBin(["update", "--check", "--no-cache"], repo);
    expect(upToDate.code, upToDate.stdout + upToDate.stderr).toBe(0);
    expect(upToDate.stdout).toContain("law: up to date");
    // The last record again, its markdown edited: the file holds its address twice, the last line's fingerprint kept.
    const lines = text.split("\n").filter((l) => l !== "");
    const last = lines[lines.length - 1]!;
    await writeFile(jsonl, `${text}${last.replace('"markdown":"', '"markdown":"x')}\n`);
    const checked = await runBin(["update", "--check", "--no-cache", "--format", "json"], repo);
    expect(checked.code).toBe(1);
    const records = JSON.parse(checked.stdout).datasets[0].records;
    expect(records).toEqual({
      before: lines.length,
      after: lines.length,
      added: [],
      removed: [],
      changed: [JSON.parse(last).citationAddress],
      duplicates: 1,
      reidentified: 0,
    });
  }, 120_000);
});
