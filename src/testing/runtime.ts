// A runtime for unit tests: a fresh fake-indexeddb database and a client that is never paired, so
// what a component sends stays in the outbox and the test reads it there. The test file imports
// 'fake-indexeddb/auto' first.
import { createRuntime, type IrisRuntime } from '../runtime';
import { freshDb } from './db';

export function createTestRuntime(): IrisRuntime {
  return createRuntime({
    db: freshDb(),
    multiTab: false,
    push: false,
    wakeSource: () => () => {},
    deviceName: 'Vitest',
  });
}

/** Stops the client and deletes the database. */
export async function disposeTestRuntime(runtime: IrisRuntime): Promise<void> {
  await runtime.stop();
  await runtime.db.delete();
}
