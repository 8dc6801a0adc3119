// Whether this browser holds a gateway token, followed for as long as the app runs. One live query
// serves all that starts or changes with pairing (the paired mark, the push bridge).
import { liveQuery } from 'dexie';
import type { IrisDB } from '../store/db';
import { getSetting } from '../store/models/settings';

/** Calls `next` with whether a token is stored, now and on every change; the returned function stops it. */
export function watchPaired(db: IrisDB, next: (paired: boolean) => void): () => void {
  const subscription = liveQuery(async () => !!(await getSetting(db, 'token'))).subscribe({
    next,
    error: (err: unknown) => console.warn('iris: could not read the pairing state', err),
  });
  return () => subscription.unsubscribe();
}
