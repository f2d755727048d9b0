// The `.gitattributes` lines adopt writes must name each dataset folder, whatever its name holds, as git reads them:
// a space (git splits a line at white space; a backslash does not escape it), a glob character, a `"`, a leading `#`
// or `!`. Held to git itself (`git check-attr`).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { attributesPattern, gitattributesLines } from "../src/node/update/gitattributes.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

const NAMES = ["my law", "st*ar", 'q"uote', "#hash", "!bang", "tab\there", "back\\slash", "sp ace*x", "plain"];

test("every dataset folder's line is read by git as that folder, and no other", () => {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  const folders = NAMES.map((name) => join(dir, "laws", name));
  for (const folder of folders) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "index.md"), "# X\n");
  }
  // Names a loose pattern would also match: none of them is a dataset.
  mkdirSync(join(dir, "laws", "stXar"), { recursive: true });
  writeFileSync(join(dir, "laws", "stXar", "index.md"), "# Y\n");
  const lines = gitattributesLines(dir, folders);
  writeFileSync(join(dir, ".gitattributes"), `${lines.join("\n")}\n`);
  const attribute = (path: string) =>
    execFileSync("git", ["-c", "core.quotePath=false", "check-attr", "text", "-z", "--", path], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).split("\0")[2];
  for (const name of NAMES) expect([name, attribute(`laws/${name}/index.md`)]).toEqual([name, "unset"]);
  expect(attribute("laws/stXar/index.md")).toBe("unspecified");
  // git reads the file without a word of complaint.
  const status = execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
  expect(status).not.toContain("not a valid attribute");
});

test("a plain path is written as it is; one with white space in double quotes", () => {
  expect(attributesPattern("laws/gg/**")).toBe("laws/gg/**");
  expect(attributesPattern("laws/my law/**")).toBe('"laws/my law/**"');
  expect(attributesPattern("laws/sp ace*x/**")).toBe('"laws/sp ace\\\\*x/**"');
  expect(attributesPattern("ch/sr-210.md")).toBe("ch/sr-210.md");
});
