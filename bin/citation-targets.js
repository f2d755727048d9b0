#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

try {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
} catch (error) {
  process.stderr.write(`citation-targets: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
