// The cache file of update, validate and resolve (src/node/cache/cache-file.ts): one JSON object written a line an
// entry, read without parsing the entries a run does not ask for, and written back with the lines of the entries it did
// not change as they were.
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openCacheFile, readCacheLines, writeCacheLines } from "../src/node/cache/cache-file.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

type Entry = { n: number; text?: string };
const isEntry = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && typeof (value as Entry).n === "number";
const STAMP = { field: "key", value: "k1" };

/** Names a cache holds: paths, with every character JSON escapes, and characters past ASCII. */
const names = fc.uniqueArray(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.constantFrom("../../../a.jsonl", 'with "quotes"', "back\\slash", "line\nfeed", "tab\there", "§ 1 Ä", "a b", "a"),
  ),
  { maxLength: 12 },
);

/** The names of a cache file's entries in the order of its lines (a parsed object puts integer-like names first). */
const namesInFile = (text: string) =>
  [...readCacheLines(text)!.entries.keys()].map((name) => JSON.parse(name) as string);

async function written(path: string, entries: Record<string, Entry>): Promise<void> {
  const file = openCacheFile(path, STAMP, isEntry);
  for (const [name, entry] of Object.entries(entries)) file.set(name, entry);
  await file.save();
}

describe("the cache file, a line an entry", () => {
  test("is the JSON of the object it holds, entries sorted by name, and gives back every entry", async () => {
    await fc.assert(
      fc.asyncProperty(names, async (list) => {
        const path = join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
        const entries = Object.fromEntries(list.map((name, n) => [name, { n, text: `${name}\u2028"` }]));
        await written(path, entries);
        if (list.length === 0) return;
        const text = await readFile(path, "utf8");
        const data = JSON.parse(text) as { version: number; key: string; entries: Record<string, Entry> };
        expect(data.key).toBe("k1");
        expect(data.entries).toEqual(entries);
        expect(namesInFile(text)).toEqual([...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        // One line an entry, between the head and the end.
        expect(text.split("\n")).toHaveLength(list.length + 3);
        const again = openCacheFile(path, STAMP, isEntry);
        for (const name of list) expect(again.get(name)).toEqual(entries[name]);
        expect(again.get("not there")).toBeUndefined();
      }),
      { numRuns: 40 },
    );
  });

  test("keeps the lines of the entries a run did not change as they were, and changes only the others", async () => {
    const path = join(dir, "cache.json");
    await written(path, { a: { n: 1 }, b: { n: 2 }, c: { n: 3 } });
    // An entry written by hand with a space: kept byte for byte, as it was never parsed.
    const text = (await readFile(path, "utf8")).replace('"a":{"n":1}', '"a":{"n": 1}');
    await writeFile(path, text);
    const file = openCacheFile(path, STAMP, isEntry);
    file.set("b", { n: 20 });
    file.delete("c");
    file.set("d", { n: 4 });
    await file.save();
    expect(await readFile(path, "utf8")).toBe(
      '{"version":1,"key":"k1","entries":{\n"a":{"n": 1},\n"b":{"n":20},\n"d":{"n":4}\n}}\n',
    );
  });

  test("sorts by name, not by the JSON text of the name", async () => {
    const path = join(dir, "cache.json");
    // By their JSON texts `"a b"` would come before `"a"` (a space is below a quote), and `"a\n"` (a line feed,
    // escaped) after `"a b"`.
    await written(path, { "a b": { n: 1 }, a: { n: 2 }, "a\n": { n: 3 }, "a\\": { n: 4 } });
    expect(namesInFile(await readFile(path, "utf8"))).toEqual(["a", "a\n", "a b", "a\\"]);
  });

  test("given other values for entries it holds (a hook's verdict on its law), changes their lines and no other byte", async () => {
    const path = join(dir, "cache.json");
    // Out of order and spaced by hand: all of it kept (the whole file written again would be sorted).
    const text = '{"version":1,"key":"k1","entries":{\n"c":{"n":  3},\n"a":{"n":1},\n"b":{ "n":2 }\n}}\n';
    await writeFile(path, text);
    const file = openCacheFile(path, STAMP, isEntry);
    file.set("c", { n: 30, text: "\u00e4\n" });
    file.set("a", { n: 10 });
    await file.save();
    expect(await readFile(path, "utf8")).toBe(
      text.replace('"a":{"n":1}', '"a":{"n":10}').replace('"c":{"n":  3}', '"c":{"n":30,"text":"\u00e4\\n"}'),
    );
    expect(openCacheFile(path, STAMP, isEntry).get("c")).toEqual({ n: 30, text: "\u00e4\n" });
  });

  test("finds and replaces the line of a name beyond ASCII by its UTF-8 bytes, every other byte kept", async () => {
    const path = join(dir, "cache.json");
    const text =
      '{"version":1,"key":"k1","entries":{\n"gesetz-\u00e4.lock.json":{"n":1},\n"\u00a7 1":{"n":  2,"t":"\u20ac"},\n"z\ud83d\ude00":{"n":3}\n}}\n';
    await writeFile(path, text);
    const file = openCacheFile(path, STAMP, isEntry);
    expect(file.get("\u00a7 1")).toEqual({ n: 2, t: "\u20ac" });
    file.set("z\ud83d\ude00", { n: 30, text: "\u00df" });
    await file.save();
    expect(await readFile(path, "utf8")).toBe(text.replace('{"n":3}', '{"n":30,"text":"\u00df"}'));
    const again = openCacheFile(path, STAMP, isEntry);
    expect([again.get("gesetz-\u00e4.lock.json"), again.get("z\ud83d\ude00")]).toEqual([
      { n: 1 },
      { n: 30, text: "\u00df" },
    ]);
  });

  test("gives the same entries looked up one by one and, past a few, from the whole file indexed", async () => {
    await fc.assert(
      fc.asyncProperty(names, fc.array(fc.nat(40), { maxLength: 40 }), async (list, asked) => {
        const path = join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
        const entries = Object.fromEntries(list.map((name, n) => [name, { n }]));
        await written(path, entries);
        const file = openCacheFile(path, STAMP, isEntry);
        for (const k of asked) {
          const name = list.length > 0 && k < 2 * list.length ? list[k % list.length]! : `absent ${k}`;
          expect(file.get(name)).toEqual(entries[name]);
        }
      }),
      { numRuns: 30 },
    );
  });

  test("takes the last of two lines of one name, as JSON.parse takes the last member, either way", async () => {
    const path = join(dir, "cache.json");
    await writeFile(path, '{"version":1,"key":"k1","entries":{\n"a":{"n":1},\n"b":{"n":2},\n"a":{"n":3}\n}}\n');
    expect(openCacheFile(path, STAMP, isEntry).get("a")).toEqual({ n: 3 });
    const many = openCacheFile(path, STAMP, isEntry);
    for (let i = 0; i < 20; i++) many.get(`x${i}`);
    expect(many.get("a")).toEqual({ n: 3 });
  });

  test("is not written when nothing changed, or an entry is set to what it holds", async () => {
    const path = join(dir, "cache.json");
    await written(path, { a: { n: 1 } });
    const before = await stat(path, { bigint: true });
    const file = openCacheFile(path, STAMP, isEntry);
    file.set("a", { n: 1 });
    file.delete("none");
    expect(file.get("a")).toEqual({ n: 1 });
    await file.save();
    // Written, it would be a new file (written beside and renamed): another inode.
    const after = await stat(path, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
  });

  test("reads a file of the same JSON on one line (an older build's), and writes it back a line an entry", async () => {
    const path = join(dir, "cache.json");
    await writeFile(path, `${JSON.stringify({ version: 1, key: "k1", entries: { x: { n: 1 }, y: { n: 2 } } })}\n`);
    const file = openCacheFile(path, STAMP, isEntry);
    expect(file.get("y")).toEqual({ n: 2 });
    file.set("z", { n: 3 });
    await file.save();
    expect(await readFile(path, "utf8")).toBe(
      '{"version":1,"key":"k1","entries":{\n"x":{"n":1},\n"y":{"n":2},\n"z":{"n":3}\n}}\n',
    );
  });

  test("an entry that cannot be read is not there; the others are", async () => {
    const path = join(dir, "cache.json");
    await writeFile(
      path,
      '{"version":1,"key":"k1","entries":{\n"a":{"n":1},\n"b":{"n":,\n"c":"no entry",\n"d":{"n":4}\n}}\n',
    );
    const file = openCacheFile(path, STAMP, isEntry);
    expect(file.get("a")).toEqual({ n: 1 });
    expect(file.get("b")).toBeUndefined();
    expect(file.get("c")).toBeUndefined();
    expect(file.get("d")).toEqual({ n: 4 });
  });

  test("a file of another stamp or version, or no cache at all, is empty", async () => {
    const path = join(dir, "cache.json");
    await written(path, { a: { n: 1 } });
    expect(openCacheFile(path, { field: "key", value: "other" }, isEntry).get("a")).toBeUndefined();
    await writeFile(path, (await readFile(path, "utf8")).replace('"version":1', '"version":2'));
    expect(openCacheFile(path, STAMP, isEntry).get("a")).toBeUndefined();
    expect(readCacheLines('{"version":1,"entries":{}}')).toBeUndefined(); // no stamp
    expect(readCacheLines('{"version":1,"key":"k","entries":[]}')).toBeUndefined();
    expect(() => readCacheLines('{"x":1}\n{"y":2}\n')).toThrow(); // a JSONL: no JSON
  });

  test("a file named by --cache-location that is not a cache is refused, not replaced", async () => {
    const path = join(dir, "records.jsonl");
    await writeFile(path, '{"a":1}\n{"b":2}\n');
    expect(() => openCacheFile(path, STAMP, isEntry, true)).toThrow(/not a cache file of citation-targets/);
    await writeFile(path, "");
    expect(() => openCacheFile(path, STAMP, isEntry, true)).not.toThrow();
  });

  test("writeCacheLines and readCacheLines are inverse", () => {
    fc.assert(
      fc.property(names, (list) => {
        const entries = new Map(list.map((name, n) => [JSON.stringify(name), JSON.stringify({ n })]));
        const text = writeCacheLines({ version: 1, generator: "g" }, entries);
        const read = readCacheLines(text)!;
        expect(read.head).toEqual({ version: 1, generator: "g" });
        expect(read.entries).toEqual(entries);
      }),
    );
  });
});
