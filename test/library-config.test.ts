/**
 * The library reads the config as the CLI does when asked (`config: true` or a file), and not by default: a German
 * publisher's repository whose config sets the legislation host.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { adopt, DatasetError, OperationalError, resolveConfig, validate } from "../src/index.js";
import { runMain } from "./helpers/bin.js";
import { copyFixture, tempDir } from "./helpers/datasets.js";
import { fixtureRecords, toJsonl } from "./helpers/records.js";

const HOST = "www.gesetze-im-internet.de";
const FILE = "laws/mvfg.jsonl";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, "laws"));
  const records = structuredClone(fixtureRecords("mvfg"));
  for (const record of records) record.sourceTextUrl = `https://${HOST}/mvfg/`;
  await writeFile(join(dir, FILE), toJsonl(records));
  await writeFile(
    join(dir, ".citation-targets.json"),
    JSON.stringify({ legislationHost: HOST, patterns: ["laws/*.jsonl"], rules: { "line-length": "off" } }),
  );
});
afterEach(async () => cleanup());

describe("the library and the config", () => {
  test("validate with config: true gives the CLI's result; without it, today's (the default host, no config)", async () => {
    const cli = await runMain(["validate", "--format", "json"], dir);
    expect(cli.code).toBe(0);
    const fromCli = JSON.parse(cli.stdout);
    const withConfig = await validate({ cwd: dir, config: true });
    expect(fromCli.summary).toMatchObject(withConfig.summary); // the CLI adds the count of unreadable files
    expect(withConfig.summary).toMatchObject({ files: 1, records: 21, errors: 0 });
    expect(withConfig.files.map((file) => file.path)).toEqual([FILE]);
    const without = await validate({ cwd: dir, patterns: [FILE] });
    expect(without.summary.errors).toBeGreaterThan(0);
    expect(without.files[0]?.problems[0]?.message).toContain(`its host ${HOST} is not the legislation host in force`);
    expect((await validate({ cwd: dir, patterns: [FILE], config: false })).summary).toEqual(without.summary);
    // An option given wins over the config, as a flag does.
    const given = await validate({
      cwd: dir,
      patterns: [FILE],
      config: true,
      legislationHost: "www.legislation.gov.au",
    });
    expect(given.summary.errors).toBe(without.summary.errors);
  });

  test("config: a file reads that file, relative to cwd; from a subfolder the repository's config is found", async () => {
    await writeFile(join(dir, "ci.json"), JSON.stringify({ patterns: ["laws/*.jsonl"] }));
    const named = await validate({ cwd: dir, config: "ci.json" });
    expect(named.summary.files).toBe(1);
    expect(named.summary.errors).toBeGreaterThan(0); // ci.json sets no host
    const below = await validate({ cwd: join(dir, "laws"), config: true });
    expect(below.summary).toMatchObject({ files: 1, errors: 0 });
  });

  test("resolveConfig finds the config as the CLI does, reads a named one, and names a bad one", async () => {
    const found = await resolveConfig(join(dir, "laws"));
    expect(found?.path).toBe(join(dir, ".citation-targets.json"));
    expect(found?.config.legislationHost).toBe(HOST);
    expect(await resolveConfig(dir, { config: false })).toBeUndefined();
    await writeFile(join(dir, "bad.json"), JSON.stringify({ legislationHost: 5 }));
    await expect(resolveConfig(dir, { config: "bad.json" })).rejects.toThrow(
      new RegExp(`config ${join(dir, "bad.json").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not valid`),
    );
    await expect(resolveConfig(dir, { config: 3 as never })).rejects.toBeInstanceOf(OperationalError);
    await expect(validate({ cwd: dir, config: 3 as never })).rejects.toThrow(
      "validate: config: expected true, false or a path, got 3",
    );
  });

  test("adopt with config: true takes the config's folders and templates, and refuses a sourceTextUrl off its host", async () => {
    await mkdir(join(dir, "acts"));
    await copyFixture("mvfg", join(dir, "acts"));
    const templates = {
      titleId: "MVFG",
      name: "Musterverwaltungsverfahrensgesetz",
      versionDate: "2024-01-01",
      sourceTextUrl: `https://${HOST}/{folder|slug}/`,
    };
    await writeFile(join(dir, "no-host.json"), JSON.stringify({ adopt: { datasets: ["acts/*"], ...templates } }));
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ legislationHost: HOST, adopt: { datasets: ["acts/*"], ...templates } }),
    );
    await expect(adopt({ cwd: dir, check: true })).rejects.toBeInstanceOf(OperationalError); // no folders without the config
    // A template left undefined by a library caller: the example suggests one, never "--title-id undefined".
    const lacking = await adopt({
      cwd: dir,
      check: true,
      config: false,
      datasets: ["acts/*"],
      templates: { name: "{folder}", titleId: undefined },
    }).catch((error: unknown) => error);
    expect(lacking).toBeInstanceOf(OperationalError);
    expect((lacking as Error).message).toContain(
      "e.g. citation-targets adopt 'acts/*' --title-id '{front.jurabk}' --name '{folder}'",
    );
    expect((lacking as Error).message).not.toContain("undefined");
    // The config without a host: the default is in force, and validate would reject the records: refused.
    const refused = await adopt({ cwd: dir, check: true, config: "no-host.json" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatasetError);
    expect((refused as DatasetError).problems.join("\n")).toContain(
      `mvfg: sourceTextUrl https://${HOST}/mvfg/ is on ${HOST}, not on the legislation host www.legislation.gov.au`,
    );
    const checked = await adopt({ cwd: dir, check: true, config: "no-host.json", legislationHost: HOST });
    expect(checked.updates.map((update) => update.slug)).toEqual(["mvfg"]);
    const adopted = await adopt({ cwd: dir, config: true, templates: { name: "MVfG (given)" } });
    expect(adopted.updates[0]?.warnings).toEqual([]);
    const manifest = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/mvfg.lock.json"), "utf8"));
    expect(manifest).toMatchObject({ slug: "mvfg", titleId: "MVFG", name: "MVfG (given)" });
  });
});
