// A mark in localStorage that this browser holds a gateway token (never the token: only that there is
// one). public/pair-preload.js reads it before the app runs: a paired browser opens a lane, so it skips
// the pairing page's preload. The database decides; this copy follows it, both ways.
import { liveQuery } from 'dexie';
import type { IrisDB } from '../store/db';
import { getSetting } from '../store/models/settings';

export const PAIRED_HINT_KEY = 'iris.paired';

function writeHint(paired: boolean): void {
  try {
    if (paired) localStorage.setItem(PAIRED_HINT_KEY, '1');
    else localStorage.removeItem(PAIRED_HINT_KEY);
  } catch {
    // storage blocked: the pairing page is preloaded for everyone, as without the mark
  }
}

/** Keeps the mark equal to whether the database holds a token; the returned function stops it. */
export function mirrorPairedHint(db: IrisDB): () => void {
  const subscription = liveQuery(async () => !!(await getSetting(db, 'token'))).subscribe({
    next: writeHint,
    error: (err: unknown) => console.warn('iris: could not read the pairing state', err),
  });
  return () => subscription.unsubscribe();
}
