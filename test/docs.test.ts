import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { generate } from "../src/node/generate/generate.js";
import { rules } from "../src/rules/index.js";
import { check, repoRoot } from "./helpers/records.js";

const spec = () => readFile(join(repoRoot, "docs/spec.md"), "utf8");
const readme = () => readFile(join(repoRoot, "README.md"), "utf8");

async function help(command: string): Promise<string> {
  let out = "";
  await main({
    argv: [command, "--help"],
    cwd: repoRoot,
    env: {},
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
  });
  return out;
}

describe("docs", () => {
  test("the README's library example type-checks against the built package's declarations (tsc --strict)", async () => {
    const text = await readme();
    const example = /^## Library\n[\s\S]*?^```ts\n([\s\S]*?)^```/m.exec(text)?.[1];
    expect(example).toContain('from "citation-targets"');
    // In the package's folder, so that "citation-targets" is the package itself (its exports, dist/index.d.ts).
    const folder = await mkdtemp(join(repoRoot, ".readme-example-"));
    try {
      await writeFile(join(folder, "example.mts"), example!);
      await writeFile(
        join(folder, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "nodenext",
            moduleResolution: "nodenext",
            target: "es2022",
            skipLibCheck: true,
            noEmit: true,
            types: ["node"],
          },
          files: ["example.mts"],
        }),
      );
      const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", join(folder, "tsconfig.json")], { stdio: "pipe" });
      } catch (error) {
        output = String((error as { stdout?: Buffer }).stdout ?? error);
      }
      expect(output).toBe("");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  test("every rule has its section in docs/spec.md, and nothing else claims to be a rule", async () => {
    const text = await spec();
    const anchors = [...text.matchAll(/<a id="rule-([a-z0-9-]+)"><\/a>\n### ([a-z0-9-]+)/g)].map((m) => [m[1], m[2]]);
    expect(anchors.map(([a]) => a)).toEqual(rules.map((r) => r.id));
    for (const [anchor, heading] of anchors) expect(heading).toBe(anchor);
  });

  test("the worked example of docs/spec.md is what generate produces", async () => {
    let out = "";
    await generate({
      manifest: join(repoRoot, "fixtures/datasets/example-act/citation-targets.lock.json"),
      write: (t) => (out += t),
    });
    const block = /```jsonl\n([\s\S]*?)```/.exec(await spec())![1];
    expect(block).toBe(out);
    expect(check(out, { file: "example-act.jsonl" }).problems).toEqual([]);
  });

  test.each(["validate", "lock", "generate", "update", "diff", "view", "resolve", "schema"])(
    "README documents every option of %s",
    async (command) => {
      const text = await readme();
      const options = [...(await help(command)).matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)]
        .map((m) => m[1]!)
        .filter((o) => o !== "--help");
      expect(options.length).toBeGreaterThan(0);
      for (const option of options)
        expect(text, `${command} ${option}`).toMatch(new RegExp(`\`[^\`\n]*${option}(?![a-z-])[^\`\n]*\``));
    },
  );

  test("README lists every rule id", async () => {
    const text = await readme();
    for (const rule of rules) expect(text).toContain(`\`${rule.id}\``);
  });
});
