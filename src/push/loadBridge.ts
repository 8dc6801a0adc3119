// The push bridge (badge, notifications, answers sent from a notification) serves a paired app: the
// runtime loads its code once this browser holds a token, so the pairing screen of a new visitor goes
// without it. Messages the service worker posts meanwhile wait in the page's queue (startMessages()
// opens it).
import type { IrisClient } from '../client';
import type { IrisDB } from '../store/db';

/** Loads and starts the push bridge; nothing in a browser without service workers. Call once. */
export function loadPushBridge({ db, client }: { db: IrisDB; client: IrisClient }): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  import('./bridge')
    .then(({ startPushBridge }) => startPushBridge({ db, client }))
    .catch((err: unknown) => console.warn('iris: could not start the push bridge', err));
}
