/** An operational failure the CLI reports with exit code 2: bad usage, configuration, or I/O. */
export class OperationalError extends Error {
  override name = "OperationalError";
}
