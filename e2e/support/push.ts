// Web Push in the browser tests: the page's PushManager hands out a test subscription (no push service
// is reachable here), a push is delivered to the service worker through DevTools as a push service
// would, and a notification's action is clicked inside the worker (a test cannot click system UI).
// Used by e2e/push.spec.ts and the Hermes browser test (e2e/hermes).
import { expect, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import type { TestSubscriber } from '../../server/push/testing/decrypt';
import { NOTIFICATIONS_LOCK } from '../../src/push/notificationLock';

/** The page's PushManager returns the test's subscription (kept in localStorage, so reloads see it too). */
export async function fakePushManager(context: BrowserContext, subscriber: TestSubscriber): Promise<void> {
  await context.addInitScript((json) => {
    const KEY = 'iris-test-push-subscription';
    const make = (sub: typeof json) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: () => null,
      toJSON: () => sub,
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      const base64url = btoa(String.fromCharCode(...key))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      localStorage.setItem(
        'iris-test-push-subscribe-options',
        JSON.stringify({ userVisibleOnly: options?.userVisibleOnly, key: base64url }),
      );
      localStorage.setItem(KEY, JSON.stringify(json));
      return make(json) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      const stored = localStorage.getItem(KEY);
      return stored ? (make(JSON.parse(stored) as typeof json) as unknown as PushSubscription) : null;
    };
  }, subscriber.subscription);
}

/**
 * Pushes as a push service would, through DevTools (`ServiceWorker.deliverPushMessage`) from `page`, to
 * the service worker of `origin`. `page` need not be the app (about:blank works with every app window closed).
 */
export async function pushDeliverer(
  page: Page,
  origin: string,
): Promise<{ deliver(data: unknown): Promise<void>; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  let registrationId: string | undefined;
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
    for (const r of event.registrations)
      if (!r.isDeleted && r.scopeURL === `${origin}/`) registrationId = r.registrationId;
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrationId, { timeout: 10_000 }).toBeDefined();
  return {
    cdp,
    deliver: async (data) => {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId: registrationId!,
        data: JSON.stringify(data),
      });
    },
  };
}

/** The parts of the service worker's global scope used here (the DOM lib does not describe it). */
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  navigator: { locks: LockManager };
  dispatchEvent(event: Event): boolean;
  NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event;
}

/** The notifications the worker shows with this tag: [title, body, action names]. */
export function workerNotifications(worker: Worker, tag: string): Promise<Array<[string, string, string[]]>> {
  return worker.evaluate(
    async ({ tag, lock }) => {
      const sw = self as unknown as WorkerScope;
      // Under the app's lock: a read while the worker shows one would lose it (src/push/notificationLock.ts).
      const list = await sw.navigator.locks.request(lock, () => sw.registration.getNotifications({ tag }));
      return list.map((n): [string, string, string[]] => [
        n.title,
        n.body,
        ((n as unknown as { actions?: { action: string }[] }).actions ?? []).map((a) => a.action),
      ]);
    },
    { tag, lock: NOTIFICATIONS_LOCK },
  );
}

/** A click on a notification (or one of its actions), dispatched inside the service worker. */
export async function clickNotification(worker: Worker, tag: string, action = ''): Promise<void> {
  await worker.evaluate(
    async ({ tag, action, lock }) => {
      const sw = self as unknown as WorkerScope;
      const [notification] = await sw.navigator.locks.request(lock, () => sw.registration.getNotifications({ tag }));
      if (!notification) throw new Error(`no notification tagged ${tag}`);
      sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification, action }));
    },
    { tag, action, lock: NOTIFICATIONS_LOCK },
  );
}
