/**
 * Issue 32, item 9: the library's options of the wrong shape are refused by name (OperationalError), never a raw
 * TypeError from deep inside.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

describe("library options of the wrong shape name the option", () => {
  test("update: a manifest that is not a path, manifests not an array, an unknown member, a bad dataset", async () => {
    const library = await import("../src/index.js");
    const refused = async (call: Promise<unknown>, message: string | RegExp) => {
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(library.OperationalError);
      if (typeof message === "string") expect((error as Error).message).toBe(message);
      else expect((error as Error).message).toMatch(message);
    };
    await refused(
      library.update({ manifests: [{}] } as never),
      "update: manifests: expected an array of non-empty strings, got {} at [0]",
    );
    await refused(
      library.update({ manifests: "x.lock.json" } as never),
      'update: manifests: expected an array of strings, got "x.lock.json"',
    );
    await refused(library.update({ jobs: "2" } as never), 'update: jobs: expected a whole number, 1 or more, got "2"');
    await refused(library.update({ set: { versionDate: 20240601 } } as never), /^update: set: versionDate: expected/);
    await refused(
      library.update({ datasets: [{ manifest: "m.lock.json" }] } as never),
      "update: datasets: [0]: dir is required",
    );
    await refused(library.update({ manifest: ["x"] } as never), /^update: unknown option "manifest" \(options: /);
    await refused(library.update(5 as never), "update: expected an options object, got 5");
  });

  test("lock: a misnamed or mistyped option, the required dir, and maps of kinds", async () => {
    const library = await import("../src/index.js");
    await expect(library.lock({ datasetDir: 5 } as never)).rejects.toThrow(
      /^lock: dir is required; unknown option "datasetDir" \(options: dir, /,
    );
    await expect(library.lock({ dir: 5 } as never)).rejects.toThrow(
      new library.OperationalError("lock: dir: expected a non-empty string, got 5"),
    );
    await expect(library.lock({ dir: repoRoot, kinds: { "a.md": "poem" } } as never)).rejects.toThrow(
      /^lock: kinds: "a\.md": expected one of "/,
    );
    await expect(library.lock({ dir: repoRoot, order: "a.md" } as never)).rejects.toThrow(
      new library.OperationalError('lock: order: expected an array of strings, got "a.md"'),
    );
  });

  test("lock: every fault of a dataset field is a FieldsError with its problems, its message naming the option", async () => {
    const library = await import("../src/index.js");
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "index.md": "# A\n" });
      const base = {
        dir,
        output: join(dir, "x.lock.json"),
        slug: "x",
        titleId: "T",
        name: "N",
        versionDate: "2024-01-01",
        sourceTextUrl: "https://www.legislation.gov.au/x",
      };
      const refusal = async (bad: Record<string, unknown>) => {
        const error = await library.lock({ ...base, ...bad } as never).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, JSON.stringify(bad)).toBeInstanceOf(library.FieldsError);
        const { problems, message } = error as InstanceType<typeof library.FieldsError>;
        return { problems: problems.map((p) => [p.field, p.value]), message };
      };
      // Empty, blank or not a string: one class, the problem as data, whichever check finds it.
      expect(await refusal({ titleId: "" })).toEqual({
        problems: [["titleId", ""]],
        message: 'titleId "": empty: it must hold at least one character that is not a space',
      });
      expect((await refusal({ name: "" })).problems).toEqual([["name", ""]]);
      expect((await refusal({ titleId: "   " })).problems).toEqual([["titleId", "   "]]);
      expect((await refusal({ slug: 5 })).problems).toEqual([["slug", "5"]]);
      // A value that is not a string is shown as it is, with its kind: not quoted as if it were the string "5".
      expect((await refusal({ titleId: 5 })).message).toBe("titleId 5: not a string (a number)");
      expect((await refusal({ name: null })).message).toBe("name null: not a string (null)");
      // Named as the library's caller gave it, not by the command line's flag.
      expect((await refusal({ versionDate: "2022-02-30" })).message).toBe(
        'versionDate "2022-02-30": not a real calendar date: February 2022 has 28 days',
      );
    } finally {
      await cleanup();
    }
  });

  test("an inherited name (toString, constructor) is an unknown option, not a call of Object's own", async () => {
    const library = await import("../src/index.js");
    await expect(library.generate({ manifest: "x.lock.json", toString: 5 } as never)).rejects.toThrow(
      /^generate: unknown option "toString" \(options: /,
    );
    await expect(library.validate({ constructor: 5 } as never)).rejects.toThrow(
      /^validate: unknown option "constructor" \(options: /,
    );
    await expect(library.diff({ jobs: -1 } as never)).rejects.toThrow(
      new library.OperationalError("diff: jobs: expected a whole number, 1 or more, got -1"),
    );
  });

  test("loadManifest, loadLockContext and generateRecords name the argument", async () => {
    const library = await import("../src/index.js");
    await expect(library.loadManifest(5 as never)).rejects.toThrow(
      new library.OperationalError("loadManifest: path: expected a non-empty string, got 5"),
    );
    await expect(library.loadLockContext("m.lock.json", undefined as never)).rejects.toThrow(
      new library.OperationalError("loadLockContext: shownPath: expected a non-empty string, got undefined"),
    );
    const drain = async (manifest: unknown, read: unknown) => {
      for await (const _ of library.generateRecords(manifest as never, read as never));
    };
    await expect(drain(5, () => "")).rejects.toThrow(/^generateRecords: manifest: expected a lock manifest/);
    await expect(drain({ artifacts: [] }, "read")).rejects.toThrow(
      new library.OperationalError("generateRecords: read: expected a function of an artifact's path, got string"),
    );
  });

  test("every member the published types declare is taken: onNote and units (lock, update), hostInForce (update)", async () => {
    const library = await import("../src/index.js");
    const notes: string[] = [];
    const onNote = (text: string) => notes.push(text);
    await expect(
      library.lock({ dir: "fixtures/datasets/mvfg", cwd: repoRoot, check: true, onNote, units: false } as never),
    ).resolves.toBeDefined();
    await expect(
      library.update({
        cwd: repoRoot,
        check: true,
        cache: false,
        onNote,
        units: false,
        hostInForce: { host: "www.legislation.gov.au", from: "the default" },
      }),
    ).resolves.toBeDefined();
    await expect(library.update({ hostInForce: "x" } as never)).rejects.toThrow(
      /^update: hostInForce: expected an object with host and from/,
    );
  });
});
