// Loaded with `node --import`: registers a module hook that names, on stderr, every module loaded
// through the ESM loader ("LOADED <url>"), so that a test can see what a command loads at start-up.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent('export async function load(url, context, next) { process._rawDebug("LOADED " + url); return next(url, context); }')}`,
);
