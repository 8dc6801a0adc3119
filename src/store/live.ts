// The UI's only way to read the DB: a Dexie liveQuery as a Solid signal. The query re-runs whenever
// a table range it read changes (in this tab or another), so there is no second copy to keep in sync.
import { liveQuery } from 'dexie';
import { createComputed, createRoot, createSignal, from, onCleanup, untrack, type Accessor } from 'solid-js';
import { liveReadsHeld, liveReadsWakes, onLiveReadsWake, readStarted } from './liveReads';

const AsyncFunction = (async () => {}).constructor;

/** What a held query gives instead of reading (liveReads.ts): never passed on. */
const ASLEEP = Symbol('asleep');

/**
 * `query`, counted as a read in flight until its result settles (liveReads.ts), or, when `sleeps()`
 * says so, ASLEEP without reading. Of the same kind: Dexie follows an async querier's reads across its
 * awaits at a cost on every await, so a plain querier must stay plain (made async, each of the lane's
 * reads paid it: an 80 ms task on a big answer).
 */
function counted<T>(
  query: () => T | Promise<T>,
  sleeps: () => boolean,
): () => T | typeof ASLEEP | Promise<T | typeof ASLEEP> {
  if (query.constructor === AsyncFunction)
    return async () => {
      if (sleeps()) return ASLEEP;
      const settled = readStarted();
      try {
        return await query();
      } finally {
        settled();
      }
    };
  return () => {
    if (sleeps()) return ASLEEP;
    const settled = readStarted();
    let result: T | Promise<T>;
    try {
      result = query();
    } catch (error) {
      settled();
      throw error;
    }
    if (isThenable(result)) result.then(settled, settled);
    else settled();
    return result;
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Follows `query` with a Dexie liveQuery. While the screen's reads are held (liveReads.ts: the sync
 * catch-up), a query that has given a result and is made stale by a write does not read again: it gives
 * nothing and follows nothing (it read nothing) until a wake, which starts it afresh.
 */
function subscribe<T>(query: () => T | Promise<T>, next: (value: T) => void): () => void {
  let delivered = false;
  let asleep = false;
  /** The wakes there had been when its last read began (liveReadsWakes). */
  let readAfterWakes = -1;
  const sleeps = () => {
    // A query made stale by a write just before a wake is told of it only after the wake (Dexie tells
    // its live queries in a task of their own): it reads, as the wake asked, instead of sleeping.
    if (!delivered || !liveReadsHeld() || readAfterWakes < liveReadsWakes()) {
      readAfterWakes = liveReadsWakes();
      return false;
    }
    asleep = true;
    return true;
  };
  const watched = counted(query, sleeps);
  let subscription: { unsubscribe(): void } | undefined;
  const start = () => {
    delivered = false;
    asleep = false;
    subscription = liveQuery(watched).subscribe({
      next: (value) => {
        // Asleep, it follows nothing, but Dexie would still gather every write into it until it reads.
        if (value === ASLEEP) subscription?.unsubscribe();
        else {
          delivered = true;
          next(value);
        }
      },
      error: (error: unknown) => console.error('live query failed', error),
    });
  };
  const stopWaking = onLiveReadsWake(() => {
    if (!asleep) return;
    subscription?.unsubscribe();
    start();
  });
  start();
  return () => {
    stopWaking();
    subscription?.unsubscribe();
  };
}

/**
 * A signal holding the latest result of `query`. Starts at `initial` until the first result lands.
 * Must be called inside a reactive owner (a component or createRoot): the subscription ends with it.
 * A failing query keeps the last good value and reports the error on the console, never throws into
 * the UI. Solid signals read inside `query` are not tracked: use `liveOn` for that.
 */
export function live<T>(query: () => T | Promise<T>, initial: T): Accessor<T>;
export function live<T>(query: () => T | Promise<T>): Accessor<T | undefined>;
export function live<T>(query: () => T | Promise<T>, initial?: T): Accessor<T | undefined> {
  // `() => value`: a function-valued result must not be taken for an updater.
  return from<T | undefined>((set) => subscribe(query, (value) => set(() => value)), initial);
}

interface SharedQuery {
  value: Accessor<unknown>;
  users: number;
  dispose: () => void;
}

const sharedQueries = new WeakMap<object, Map<string, SharedQuery>>();

/**
 * `live`, run once for every caller asking for the same `key` of the same `db` while any of them is
 * mounted: several components of one screen reading the same row would otherwise each re-run it after
 * every write that touches it (a streamed reply's row: three copies of each read, per update). A later
 * caller starts at the current result. The query ends with its last caller's owner.
 */
export function liveShared<T>(db: object, key: string, query: () => T | Promise<T>, initial: T): Accessor<T>;
export function liveShared<T>(db: object, key: string, query: () => T | Promise<T>): Accessor<T | undefined>;
export function liveShared<T>(
  db: object,
  key: string,
  query: () => T | Promise<T>,
  initial?: T,
): Accessor<T | undefined> {
  let queries = sharedQueries.get(db);
  if (!queries) sharedQueries.set(db, (queries = new Map<string, SharedQuery>()));
  let shared = queries.get(key);
  if (!shared) {
    // Owned by its own root, not the first caller: it must outlive that caller while others use it.
    shared = createRoot((dispose) => ({ value: live(query, initial), users: 0, dispose }));
    queries.set(key, shared);
  }
  const entry = shared;
  entry.users += 1;
  onCleanup(() => {
    entry.users -= 1;
    if (entry.users > 0) return;
    entry.dispose();
    if (queries.get(key) === entry) queries.delete(key);
  });
  return entry.value as Accessor<T | undefined>;
}

/**
 * `live` for a query that depends on a signal (the lane on screen): re-subscribes whenever
 * `source` changes, going back to `initial` meanwhile so another lane's rows never show.
 */
export function liveOn<S, T>(source: Accessor<S>, query: (value: S) => T | Promise<T>, initial: T): Accessor<T>;
export function liveOn<S, T>(source: Accessor<S>, query: (value: S) => T | Promise<T>): Accessor<T | undefined>;
export function liveOn<S, T>(
  source: Accessor<S>,
  query: (value: S) => T | Promise<T>,
  initial?: T,
): Accessor<T | undefined> {
  const [value, setValue] = createSignal<T | undefined>(initial);
  createComputed(() => {
    const current = source();
    untrack(() => {
      setValue(() => initial);
      onCleanup(
        subscribe(
          () => query(current),
          (result) => setValue(() => result),
        ),
      );
    });
  });
  return value;
}

/**
 * `liveOn` that keeps the previous result until the new query's first one lands: for a list that
 * stays on screen while its source changes (toasts across lanes), where going blank would restart it.
 */
export function liveOnKeeping<S, T>(source: Accessor<S>, query: (value: S) => T | Promise<T>, initial: T): Accessor<T> {
  const [value, setValue] = createSignal<T>(initial);
  createComputed(() => {
    const current = source();
    untrack(() =>
      onCleanup(
        subscribe(
          () => query(current),
          (result) => setValue(() => result),
        ),
      ),
    );
  });
  return value;
}
