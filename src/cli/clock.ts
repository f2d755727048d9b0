/**
 * Milliseconds from a fixed moment, for the durations the commands report (`checked in 12 ms`) and the progress line's
 * pace: the monotonic clock of `process.hrtime`, as `performance.now()` reads it. Not `performance` itself: its first
 * read loads Node's performance modules (perf_hooks and eight more), a few ms of every start-up (bench/RESULTS.md,
 * "Start-up").
 */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
