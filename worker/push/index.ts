/// <reference lib="webworker" />
// Web Push in the service worker (issue 7): show what the gateway (or the ntfy relay) pushed, open the
// lane on a click, carry out a question's answer from its buttons, and renew a changed subscription.
import { IrisDB } from '../../src/store/db';
import { relaySubscribe, relayUnsubscribe } from '../../src/push/relay';
import { clearShownCount, setShownCount, shownCount } from '../../src/push/shownCounts';
import { withNotificationLock } from '../../src/push/notificationLock';
import { PICKER_TAG_PREFIX } from '../../src/push/tags';
import { addPushUnread } from '../../src/push/unread';
import { totalUnread } from '../../src/store/models/messages';
import { answerOverOwnConnection, helloOverOwnConnection, type CallResult } from './gateway-call';
import {
  buildNotification,
  notificationTag,
  outcomeNotification,
  previousCount,
  readNotificationData,
  type NotificationData,
} from './notification';
import { parsePush, readPushData } from './payload';
import { renewSubscription } from './renew';
import { answerThroughWindow, appWindows, laneIsVisible, openInWindow } from './windows';

declare const self: ServiceWorkerGlobalScope;

interface SubscriptionChangeEvent extends ExtendableEvent {
  readonly oldSubscription?: PushSubscription | null;
  readonly newSubscription?: PushSubscription | null;
}

type BadgeNavigator = WorkerNavigator & { setAppBadge?: (count?: number) => Promise<void> };

/** Pushes are shown one at a time: each reads the notification it replaces (for the count) before showing. */
let showing: Promise<void> = Promise.resolve();

export function installPush(): void {
  self.addEventListener('push', (event) => {
    const data = readPushData(event.data);
    showing = showing.catch(() => undefined).then(() => showPush(data)); // the last push's failure was logged by keepAlive
    keepAlive(event, showing);
  });
  self.addEventListener('notificationclick', (event) => keepAlive(event, onClick(event.notification, event.action)));
  // Dismissed: the next push for its lane starts a new count.
  self.addEventListener('notificationclose', (event) => keepAlive(event, forgetCount(event.notification.tag)));
  self.addEventListener('pushsubscriptionchange', (event) => keepAlive(event, renew(event as SubscriptionChangeEvent)));
}

/** Events dispatched by DevTools or a test are untrusted and cannot extend the worker's life; the work still runs. */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  const logged = work.catch((err: unknown) => console.error('iris push:', err));
  try {
    event.waitUntil(logged);
  } catch {
    /* untrusted event */
  }
}

async function withDb<T>(use: (db: IrisDB) => Promise<T>): Promise<T> {
  const db = new IrisDB();
  try {
    return await use(db);
  } finally {
    db.close();
  }
}

/** A question's notification stands for itself; the others collapse, with a count. */
const counted = (tag: string) => !tag.startsWith(PICKER_TAG_PREFIX);

function forgetCount(tag: string): Promise<void> {
  return counted(tag) ? withDb((db) => clearShownCount(db, tag)) : Promise.resolve();
}

async function showPush(data: unknown): Promise<void> {
  const push = parsePush(data);
  const tag = notificationTag(push);
  // A window showing that lane shows it there instead (a reminder as its message, a question as its dialog).
  if (!push.fromRelay && (await laneIsVisible(push.lane))) return forgetCount(tag);
  await withDb(async (db) => {
    const picker = push.picker_id ? await db.pickers.get(push.picker_id).catch(() => undefined) : undefined; // unreadable: shown without its buttons
    const maxActions = (Notification as unknown as { maxActions?: number }).maxActions ?? 2;
    // The notification it replaces is read and the new one shown under the lock (see notificationLock).
    const built = await withNotificationLock(async () => {
      const [existing] = await self.registration.getNotifications({ tag });
      // Chromium may not list the notification shown a moment ago (the push before this one): the
      // count kept when it was shown stands in for it.
      const previous = existing
        ? previousCount(existing.data)
        : counted(tag)
          ? await shownCount(db, tag).catch(() => 0)
          : 0;
      const notification = buildNotification(push, { previous, picker, maxActions, origin: self.location.origin });
      await self.registration.showNotification(notification.title, notification.options);
      return notification;
    });
    if (counted(tag))
      await setShownCount(db, tag, (built.options.data as NotificationData).count).catch((err: unknown) =>
        console.warn('iris push: could not keep the notification’s count', err),
      );
    await updateBadge(db).catch((err: unknown) => console.warn('iris push: could not update the badge', err));
  });
}

/** With no window open the app cannot count, so the badge is the DB's unread total plus the pushes since. */
async function updateBadge(db: IrisDB): Promise<void> {
  const nav = self.navigator as BadgeNavigator;
  if (!nav.setAppBadge || (await appWindows()).length > 0) return;
  const pushed = await addPushUnread(db);
  await nav.setAppBadge((await totalUnread(db)) + pushed);
}

async function onClick(notification: Notification, action: string): Promise<void> {
  const data = readNotificationData(notification.data);
  const answer = action ? data?.answers?.[action] : undefined;
  if (!data || !answer) {
    notification.close();
    await forgetCount(notification.tag).catch((err: unknown) =>
      console.warn('iris push: could not reset the count', err),
    );
    await openInWindow(data?.url ?? '/');
    return;
  }
  const tag = notification.tag;
  const body = notification.body;
  const sending = outcomeNotification(notification.title, 'Sending your answer…', data, tag);
  await show(sending);
  const result = await carryOut(data, answer.value);
  const outcome = result.ok
    ? outcomeNotification(answer.done, body, data, tag)
    : outcomeNotification('Not answered', result.error, data, tag);
  await show(outcome);
}

function show(notification: { title: string; options: NotificationOptions }): Promise<void> {
  return withNotificationLock(() => self.registration.showNotification(notification.title, notification.options));
}

/** Through an open window's connection if one can, else over the worker's own short connection. */
async function carryOut(data: NotificationData, value: string): Promise<CallResult> {
  const picker_id = data.picker_id!;
  const reply = await answerThroughWindow(picker_id, value);
  if (reply?.handled) return reply.ok ? { ok: true } : { ok: false, error: reply.error };
  return withDb((db) =>
    answerOverOwnConnection(db, {
      picker_id,
      value,
      ...(data.chat_id && { chat_id: data.chat_id }),
      ...(data.thread_id && { thread_id: data.thread_id }),
      ...(data.lane && { lane: data.lane }),
    }),
  );
}

/** The push service replaced our subscription: subscribe again with the same key and tell whoever pushes. */
async function renew(event: SubscriptionChangeEvent): Promise<void> {
  await withDb((db) =>
    renewSubscription(
      {
        db,
        subscribe: (applicationServerKey) =>
          self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
        relaySubscribe,
        relayUnsubscribe,
        tellGateway: (d) => helloOverOwnConnection(d),
      },
      event.newSubscription,
    ),
  );
}
