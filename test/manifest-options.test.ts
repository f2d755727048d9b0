/**
 * The lock manifest's optional members (docs/spec.md, section 8: legislationHost, units, aliases): one rule for all,
 * written only when set, kept when a run does not name them (src/node/dataset/manifest-options.ts).
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_ALIAS_KEYS,
  layerManifestOptions,
  manifestOptionsOf,
  optionalMembers,
} from "../src/node/dataset/manifest-options.js";

/** A reader that answers each key with its upper case, and says which keys it was asked for. */
function reader() {
  const asked: string[][] = [];
  const read = async (keys: readonly string[]) => {
    asked.push([...keys]);
    return { aliases: keys.map((key) => key.toUpperCase()) };
  };
  return { asked, read };
}

describe("manifestOptionsOf and layerManifestOptions", () => {
  test("keep only the members that ask for something", () => {
    expect(manifestOptionsOf({ legislationHost: undefined, units: false, aliasKeys: [] })).toEqual({});
    expect(manifestOptionsOf(undefined)).toEqual({});
    expect(manifestOptionsOf({ legislationHost: null, units: true, aliasKeys: ["jurabk"] })).toEqual({
      legislationHost: null,
      units: true,
      aliasKeys: ["jurabk"],
    });
  });

  test("the first layer that asks for a member wins it; a layer that says nothing of it does not hide the next", () => {
    expect(
      layerManifestOptions(
        { units: false, aliasKeys: [] },
        { units: true, aliasKeys: ["amtabk"], legislationHost: "www.fedlex.admin.ch" },
      ),
    ).toEqual({ units: true, aliasKeys: ["amtabk"], legislationHost: "www.fedlex.admin.ch" });
    expect(
      layerManifestOptions({ aliasKeys: ["jurabk"], legislationHost: null }, undefined, { aliasKeys: ["kurz"] }),
    ).toEqual({
      aliasKeys: ["jurabk"],
      legislationHost: null,
    });
  });
});

describe("optionalMembers", () => {
  test("a manifest without them and a run that names none: nothing is written, nothing is read", async () => {
    const { asked, read } = reader();
    expect(await optionalMembers({}, undefined, read)).toEqual({});
    expect(await optionalMembers({ units: false, aliasKeys: [] }, {}, read)).toEqual({});
    expect(asked).toEqual([]);
  });

  test("what the manifest has is kept by a run that does not name it", async () => {
    const { asked, read } = reader();
    const existing = { legislationHost: "www.fedlex.admin.ch", units: true as const, aliases: ["OR"] };
    expect(await optionalMembers({}, existing, read)).toEqual(existing);
    expect(asked).toEqual([]);
  });

  test("a host replaces the manifest's, null removes it", async () => {
    const { read } = reader();
    expect(await optionalMembers({ legislationHost: "a.example" }, { legislationHost: "b.example" }, read)).toEqual({
      legislationHost: "a.example",
    });
    expect(await optionalMembers({ legislationHost: null }, { legislationHost: "b.example" }, read)).toEqual({});
  });

  test("alias keys are read again; units on a manifest with no aliases reads the default keys, once aliased it does not", async () => {
    const { asked, read } = reader();
    expect(await optionalMembers({ aliasKeys: ["jurabk"] }, { aliases: ["OLD"] }, read)).toEqual({
      aliases: ["JURABK"],
    });
    expect(await optionalMembers({ units: true }, undefined, read)).toEqual({
      units: true,
      aliases: DEFAULT_ALIAS_KEYS.map((key) => key.toUpperCase()),
    });
    expect(await optionalMembers({ units: true }, { aliases: ["BGB"] }, read)).toEqual({
      units: true,
      aliases: ["BGB"],
    });
    expect(asked).toEqual([["jurabk"], [...DEFAULT_ALIAS_KEYS]]);
  });

  test("keys whose front matter gives no value write no aliases (not an empty list)", async () => {
    expect(
      await optionalMembers({ aliasKeys: ["jurabk"] }, { aliases: ["OLD"] }, async () => ({ aliases: [] })),
    ).toEqual({});
  });

  test("a dataset of several laws: each document's aliases replace the dataset's, and are kept as aliases are", async () => {
    const several = async () => ({ aliases: [], documentAliases: { "a/index.md": ["AG"], "b/index.md": ["BG"] } });
    const written = await optionalMembers({ aliasKeys: ["jurabk"] }, { aliases: ["OLD"] }, several);
    expect(written).toEqual({ documentAliases: { "a/index.md": ["AG"], "b/index.md": ["BG"] } });
    const { asked, read } = reader();
    // Kept by a run naming no keys; units turned on later does not read the default keys over them.
    expect(await optionalMembers({}, written, read)).toEqual(written);
    expect(await optionalMembers({ units: true }, written, read)).toEqual({ units: true, ...written });
    expect(asked).toEqual([]);
    // Read again into one law: the documents' aliases go.
    expect(await optionalMembers({ aliasKeys: ["jurabk"] }, written, read)).toEqual({ aliases: ["JURABK"] });
  });
});
