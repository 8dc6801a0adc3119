// The app's side of push, started once per window: answers the service worker's requests (send a
// question's answer over the app's connection, show a route), keeps the icon badge to the unread
// total, and brings the stored subscription in line with the browser's at start.
import { liveQuery } from 'dexie';
import { laneOfPath } from '../protocol/lanes';
import { keepBadgeUpdated } from '../pwa/badge';
import type { IrisClient } from '../client';
import type { IrisDB } from '../store/db';
import { withNotificationLock } from './notificationLock';
import { clearShownCount } from './shownCounts';
import { reconcilePush } from './subscribe';
import { PICKER_TAG_PREFIX, laneTag } from './tags';
import { clearPushUnread } from './unread';
import type { LaneReply, OpenReply, SelectReply, WorkerToWindow } from './worker-messages';

let started = false;

export function startPushBridge({ db, client }: { db: IrisDB; client: IrisClient }): void {
  if (started || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  started = true;
  navigator.serviceWorker.addEventListener('message', (event) => onWorkerMessage(client, event));
  navigator.serviceWorker.startMessages();
  // The app is open: it syncs what was pushed, and counts unread from the DB again.
  void clearPushUnread(db).catch((err: unknown) =>
    console.warn('iris: could not reset the count of pushes since the app was last open', err),
  );
  keepBadgeUpdated(db);
  closeSeenNotifications(db);
  void navigator.serviceWorker.ready
    .then(() => reconcilePush({ db, register: (payload) => client.registerPush(payload) }))
    .catch((err: unknown) => console.warn('iris: could not check the push subscription', err));
}

/**
 * Notifications the user no longer needs while the app is open: the lane now on screen, and questions
 * answered (here or on another device). Outcome notifications carry no answers and are left alone.
 */
function closeSeenNotifications(db: IrisDB): void {
  const sweep = async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) return;
    const { lane, visible } = currentLane();
    // The lane is seen: its next push starts a new count (the notification shown for it may be one
    // Chromium does not list yet, so the count goes whether or not one is found below).
    if (visible && lane !== undefined) await clearShownCount(db, laneTag(lane));
    const listed = await withNotificationLock(() => registration.getNotifications());
    for (const n of listed) {
      if (visible && lane !== undefined && n.tag === laneTag(lane)) n.close();
      else if (n.tag.startsWith(PICKER_TAG_PREFIX) && (n.data as { answers?: unknown } | null)?.answers) {
        const picker = await db.pickers.get(n.tag.slice(PICKER_TAG_PREFIX.length));
        if (picker && picker.state !== 'open') n.close();
      }
    }
  };
  const run = () =>
    void sweep().catch((err: unknown) => console.warn('iris: could not close notifications already seen', err));
  window.addEventListener('hashchange', run);
  document.addEventListener('visibilitychange', run);
  liveQuery(() => db.pickers.where('state').notEqual('open').primaryKeys()).subscribe({
    next: run,
    error: () => undefined,
  });
}

function onWorkerMessage(client: IrisClient, event: MessageEvent): void {
  const message = event.data as WorkerToWindow | null;
  const port = event.ports[0];
  if (!message || typeof message !== 'object' || !port) return;
  if (message.type === 'iris:push:lane') port.postMessage(currentLane() satisfies LaneReply);
  else if (message.type === 'iris:push:select') void answer(client, message.picker_id, message.value, port);
  else if (message.type === 'iris:push:open') port.postMessage({ opened: open(message.url) } satisfies OpenReply);
}

function currentLane(): LaneReply {
  const path = location.hash.replace(/^#/, '').split('?', 1)[0] ?? '';
  const lane = laneOfPath(path)?.lane;
  return { ...(lane !== undefined && { lane }), visible: document.visibilityState === 'visible' };
}

async function answer(client: IrisClient, pickerId: unknown, value: unknown, port: MessagePort): Promise<void> {
  const reply = (r: SelectReply) => port.postMessage(r);
  if (typeof pickerId !== 'string' || typeof value !== 'string')
    return reply({ handled: true, ok: false, error: 'The answer was not valid.' });
  // Offline here: the worker opens its own connection instead.
  if (client.state() !== 'online') return reply({ handled: false });
  try {
    await client.selectPicker(pickerId, value);
    reply({ handled: true, ok: true });
  } catch (err) {
    reply({ handled: true, ok: false, error: err instanceof Error ? err.message : 'The answer could not be sent.' });
  }
}

/** Only this app's own routes: the hash of a same-origin URL. */
function open(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const target = new URL(url, location.origin);
    if (target.origin !== location.origin) return false;
    location.hash = target.hash || '#/';
    return true;
  } catch {
    return false;
  }
}
