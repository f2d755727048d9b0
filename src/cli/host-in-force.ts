/**
 * The legislation host in force for `lock` and `update` (the config's, else the default: legislation-host.ts). A config
 * that cannot be used (invalid, or a FIFO or a device in its place) is an error naming it (exit 2), as for every
 * command: going on with the default host would check the datasets against another host's rules than the repository's
 * (SECURITY.md, "Only regular files are read"; README, exit codes).
 */
import { errorMessage } from "../core/errors.js";
import type { HostInForce } from "../node/config/legislation-host.js";
import { OperationalError } from "../node/errors.js";

export async function hostInForceHere(cwd: string): Promise<HostInForce> {
  const [{ hostInForce }, { findConfig }] = await Promise.all([
    import("../node/config/legislation-host.js"),
    import("../node/config/config.js"),
  ]);
  const config = await findConfig(cwd).catch((error: unknown) => {
    if (error instanceof OperationalError) throw error;
    throw new OperationalError(errorMessage(error));
  });
  return hostInForce(cwd, config);
}
