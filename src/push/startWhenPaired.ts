// The push bridge (badge, notifications, answers sent from a notification) serves a paired app: its
// code loads once this browser holds a token, so the pairing screen of a new visitor goes without it.
// Messages the service worker posts meanwhile wait in the page's queue (startMessages() opens it).
import { liveQuery } from 'dexie';
import type { IrisClient } from '../client';
import type { IrisDB } from '../store/db';
import { getSetting } from '../store/models/settings';

export function startPushBridgeWhenPaired({ db, client }: { db: IrisDB; client: IrisClient }): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  let started = false;
  const subscription = liveQuery(() => getSetting(db, 'token')).subscribe({
    next(token) {
      if (!token || started) return;
      started = true;
      queueMicrotask(() => subscription.unsubscribe());
      import('./bridge')
        .then(({ startPushBridge }) => startPushBridge({ db, client }))
        .catch((err: unknown) => console.warn('iris: could not start the push bridge', err));
    },
    error: (err: unknown) => console.warn('iris: could not read the pairing state', err),
  });
}
