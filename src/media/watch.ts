// A Dexie live query that outlives its failures. A liveQuery whose query throws once (a transaction
// aborted by a full disk, a DB closed under it) ends for good: the media machinery would stop waking
// without a trace. This one reports the failure and watches again, after a wait that doubles to 30 s.
import { liveQuery } from 'dexie';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** Calls `next` with every result of `query`; returns a stop function. */
export function watchLive<T>(
  what: string,
  query: () => T | Promise<T>,
  next: (value: T) => void,
  retryFirstMs = RETRY_FIRST_MS,
): () => void {
  let stopped = false;
  let retry = retryFirstMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: { unsubscribe(): void } | undefined;
  const watch = () => {
    // A query that throws at once fails the same way as one that rejects (Dexie would rethrow it).
    const guarded = () => {
      try {
        return query();
      } catch (err) {
        return Promise.reject(err);
      }
    };
    subscription = liveQuery(guarded).subscribe({
      next: (value) => {
        retry = retryFirstMs;
        next(value);
      },
      error: (err: unknown) => {
        console.error(`iris: ${what} failed; watching again in ${retry} ms`, err);
        if (stopped) return;
        timer = setTimeout(watch, retry);
        retry = Math.min(retry * 2, RETRY_MAX_MS);
      },
    });
  };
  watch();
  return () => {
    stopped = true;
    clearTimeout(timer);
    subscription?.unsubscribe();
  };
}
