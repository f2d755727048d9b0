/**
 * What the command modules share: this package's package.json, read once (the version the reports and `--version` give),
 * and the parser of a whole-number option.
 */
import { readFileSync } from "node:fs";
import { InvalidArgumentError } from "commander";

/** This package's package.json (dist/cli and dist/node, where the bundle sits, are both two folders below it). */
export const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  repository?: unknown;
};

/** A whole-number option of 1 or more; anything else is a usage error. */
export function parsePositive(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a whole number, 1 or more");
  return Number(value);
}
