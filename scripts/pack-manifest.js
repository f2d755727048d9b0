// Around `npm pack` / `npm publish`: `strip` (prepack) takes the prepare script out of package.json, so
// that the tarball, which holds the built files, does not ask every install to run a build (npm
// warns about an install script not yet allowed); `restore` (postpack) puts package.json back byte
// for byte. A copy is kept beside it in between, so an interrupted pack is restored by the next run.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const path = new URL("../package.json", import.meta.url);
const saved = new URL("../.package.json.prepack", import.meta.url);
const mode = process.argv[2];
if (mode === "strip") {
  if (existsSync(saved)) renameSync(saved, path); // what an interrupted pack left
  const text = readFileSync(path, "utf8");
  writeFileSync(saved, text);
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === "restore") {
  if (existsSync(saved)) renameSync(saved, path);
} else {
  process.stderr.write("usage: node scripts/pack-manifest.js strip|restore\n");
  process.exit(2);
}
