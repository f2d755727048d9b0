// npm's prepare step (npm ci, npm install in a checkout, npm install of a checkout's folder): builds
// when the build tools are installed. Installed from an unbuilt checkout whose own dependencies were
// never installed, it says what to run instead of failing with "tsc: not found".
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const root = new URL("../", import.meta.url);
if (existsSync(new URL("node_modules/typescript/package.json", root))) {
  execSync("npm run build", { cwd: root, stdio: "inherit" });
} else if (!existsSync(new URL("dist/index.js", root))) {
  process.stderr.write(
    "citation-targets: this checkout is not built and its build tools are not installed: run `npm ci` in it first (that installs them and builds), then install it again\n",
  );
  process.exit(1);
}
