// A worker entry for test/pool-errors.test.ts: its one kind of task answers on the next turn of the event loop.
export async function echo(task) {
  await new Promise((resolve) => setImmediate(resolve));
  return task;
}
