// The UI's only way to read the DB: a Dexie liveQuery as a Solid signal. The query re-runs whenever
// a table range it read changes (in this tab or another), so there is no second copy to keep in sync.
import { liveQuery } from 'dexie';
import { from, type Accessor } from 'solid-js';

/**
 * A signal holding the latest result of `query`. Starts at `initial` until the first result lands.
 * Must be called inside a reactive owner (a component or createRoot): the subscription ends with it.
 * A failing query keeps the last good value and reports the error on the console, never throws into
 * the UI.
 */
export function live<T>(query: () => T | Promise<T>, initial: T): Accessor<T>;
export function live<T>(query: () => T | Promise<T>): Accessor<T | undefined>;
export function live<T>(query: () => T | Promise<T>, initial?: T): Accessor<T | undefined> {
  return from<T | undefined>((set) => {
    const subscription = liveQuery(query).subscribe({
      // A function-valued result must not be taken for an updater.
      next: (value) => set(() => value),
      error: (error: unknown) => console.error('live query failed', error),
    });
    return () => subscription.unsubscribe();
  }, initial);
}
