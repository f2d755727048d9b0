/**
 * The legislation host in force for `lock` and `update` (the config's, else the default: legislation-host.ts). They read
 * a config for its host only: one that cannot be read (broken, or a FIFO or a device in its place) is said, naming it,
 * and not used; never taken in silence for no config (SECURITY.md, "Only regular files are read").
 */
import { errorMessage } from "../core/errors.js";
import type { HostInForce } from "../node/config/legislation-host.js";
import type { OutputStream } from "./context.js";

export async function hostInForceHere(cwd: string, stderr: OutputStream): Promise<HostInForce> {
  const [{ hostInForce }, { findConfig }] = await Promise.all([
    import("../node/config/legislation-host.js"),
    import("../node/config/config.js"),
  ]);
  const config = await findConfig(cwd).catch((error: unknown) => {
    stderr.write(
      `warning: ${errorMessage(error)}; the config is not used (the default legislation host is in force)\n`,
    );
    return undefined;
  });
  return hostInForce(cwd, config);
}
