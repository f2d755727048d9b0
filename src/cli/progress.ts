/** A one-line progress display on stderr for long runs: only on a TTY, never in CI or when piped. */

import { nowMs } from "./clock.js";

export interface Progress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
  /** What is being done (default "checking") and to what (default "file"). */
  verb?: string;
  unit?: string;
}

const SHOW_AFTER_MS = 500;
const REDRAW_EVERY_MS = 100;

/** True when a progress line may be drawn: stderr is a terminal, and neither CI nor a dumb terminal. */
export function progressEnabled(env: Record<string, string | undefined>, stderrIsTTY: boolean | undefined): boolean {
  return stderrIsTTY === true && (env.CI === undefined || env.CI === "" || env.CI === "false") && env.TERM !== "dumb";
}

/** The text of the progress line. */
export function formatProgress(p: Progress): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
  const percent =
    p.bytes > 0 ? Math.floor((p.bytesDone / p.bytes) * 100) : Math.floor((p.filesDone / Math.max(p.files, 1)) * 100);
  const counted = `${p.verb ?? "checking"} ${p.filesDone}/${p.files} ${p.unit ?? "file"}s`;
  return p.bytes > 0 ? `${counted}, ${mb(p.bytesDone)}/${mb(p.bytes)} MB (${percent}%)` : `${counted} (${percent}%)`;
}

/** Draws the line after half a second, redraws at most ten times a second, and erases it when done. */
export function createProgressLine(write: (text: string) => unknown, now: () => number = () => nowMs()) {
  const started = now();
  let drawn = false;
  let last = -Infinity;
  return {
    update(progress: Progress): void {
      const t = now();
      if (t - started < SHOW_AFTER_MS || t - last < REDRAW_EVERY_MS) return;
      last = t;
      drawn = true;
      write(`\r${formatProgress(progress)}\u001b[K`);
    },
    done(): void {
      if (drawn) write("\r\u001b[K");
    },
  };
}
