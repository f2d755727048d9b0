// A worker entry for test/pool-errors.test.ts that cannot be loaded: it throws as the worker starts, before any task
// reaches it (a broken install, a module that fails as it loads).
throw new Error("thrown as the worker starts");
