/**
 * update's cache as validate's proof of what generate writes (src/node/cache/generated-proof.ts; docs/spec.md, "Worker
 * threads and the cache"): a JSONL whose manifest's bytes have an entry in update's cache, and whose own bytes have that
 * entry's digest, is taken to be what generate writes without generating it; any other is generated and compared as
 * without the cache, so the reports are those of `--no-cache`.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createColor } from "../src/formatters/color.js";
import { formatters } from "../src/formatters/index.js";
import { lock } from "../src/node/dataset/lock.js";
import { update } from "../src/node/update/update.js";
import { validate } from "../src/node/validate/validate.js";
import type { Report } from "../src/core/report/report.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

const UPDATE_CACHE = "node_modules/.cache/citation-targets/update.json";
const JSONL = ".tooling/citation-targets/law-1.jsonl";
const MANIFEST = ".tooling/citation-targets/law-1.lock.json";

function law(n: number): string {
  const parts = [`---\ntitle: "Gesetz Nr. ${n}"\n---\n\n# Gesetz über Beispiele Nr. ${n}\n`];
  for (let s = 1; s <= 3; s++)
    parts.push(`\n## § ${s} Regelung ${s}\n\n(1) Für die Zwecke dieses Gesetzes gilt Folgendes.\n`);
  return parts.join("");
}

function printed(report: Report): string {
  const context = { toolVersion: "0", color: createColor(0) };
  return `${formatters.json(report, context)}\n${formatters.stylish(report, context)}`;
}

const ruleIds = (report: Report) => report.files.flatMap((file) => file.problems.map((problem) => problem.ruleId));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("update's cache proves to validate what generate writes", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let generated: Buffer;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    await mkdir(join(dir, ".git"));
    await mkdir(join(dir, "node_modules")); // the caches' default place
    await writeTree(dir, { "laws/law-1/index.md": law(1), "laws/law-2/index.md": law(2) });
    for (const n of [1, 2])
      await lock({
        dir: join(dir, "laws", `law-${n}`),
        cwd: dir,
        output: join(dir, `.tooling/citation-targets/law-${n}.lock.json`),
        slug: `law-${n}`,
        titleId: `G${n}`,
        name: `Gesetz Nr. ${n}`,
        versionDate: "2024-12-31",
        sourceTextUrl: `https://www.legislation.gov.au/G${n}/2024-12-31/text`,
      });
    await update({ cwd: dir }); // writes the JSONL, and update's cache beside validate's
    generated = await readFile(join(dir, JSONL));
  });
  afterAll(() => cleanup());

  /** validate with its caches at their default place, fresh (no verdict of an earlier run), and with none. */
  const bothWays = async () => {
    await writeFile(join(dir, "node_modules/.cache/citation-targets/validate.json"), "");
    return {
      cached: await validate({ cwd: dir, cacheSettleMs: 0 }),
      uncached: await validate({ cwd: dir, cache: false }),
    };
  };

  test("the JSONL update wrote: proved, and the report is the one without any cache", async () => {
    const { cached, uncached } = await bothWays();
    expect(cached.summary.errors).toBe(0);
    expect(printed(cached)).toBe(printed(uncached));
  });

  test("a record edited by hand is not what the entry proves: generated and compared, the same report", async () => {
    const edited = generated.toString("utf8").replace("Regelung 2", "Regelung zwei");
    expect(edited).not.toBe(generated.toString("utf8"));
    await writeFile(join(dir, JSONL), edited);
    try {
      const { cached, uncached } = await bothWays();
      expect(ruleIds(uncached)).toContain("lock-generated");
      expect(printed(cached)).toBe(printed(uncached));
    } finally {
      await writeFile(join(dir, JSONL), generated);
    }
  });

  test("the entry is what is trusted: one whose digest is of the edited bytes proves them (a cache is the user's own)", async () => {
    const edited = Buffer.from(generated.toString("utf8").replace("Regelung 2", "Regelung zwei"));
    const cacheText = await readFile(join(dir, UPDATE_CACHE), "utf8");
    const cache = JSON.parse(cacheText) as { entries: Record<string, { output: string }> };
    const name = Object.keys(cache.entries).find((entry) => entry.endsWith(MANIFEST.split("/").pop()!))!;
    expect(cache.entries[name]!.output).toBe(sha256(generated));
    cache.entries[name]!.output = sha256(edited);
    await writeFile(join(dir, JSONL), edited);
    await writeFile(join(dir, UPDATE_CACHE), JSON.stringify(cache));
    try {
      const { cached, uncached } = await bothWays();
      expect(ruleIds(uncached)).toContain("lock-generated");
      expect(ruleIds(cached)).not.toContain("lock-generated");
      // --no-cache trusts no cache; neither does --cache-location (validate's own cache elsewhere).
      const elsewhere = await validate({ cwd: dir, cache: join(dir, "validate-elsewhere.json") });
      expect(printed(elsewhere)).toBe(printed(uncached));
    } finally {
      await writeFile(join(dir, JSONL), generated);
      await writeFile(join(dir, UPDATE_CACHE), cacheText);
    }
  });
});
