// Runs the command line from tsc's output (dist/cli/main.js, each module a file of its own, named as in src/) rather
// than the bundle, so that test/startup-modules.test.ts sees by name which modules a command loads: the bundle groups
// the same modules into chunks, loaded when the same imports are. Otherwise as bin/citation-targets.js runs `main`.
const { main } = await import("../../dist/cli/main.js");
process.exitCode = await main({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
