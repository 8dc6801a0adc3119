// Turning notifications on and off in this browser: permission, the PushSubscription, the relay topic
// (proxy mode) and telling the gateway (fcm.register; every later hello repeats it).
//
// How the app chooses the delivery: a gateway whose hello.ack says `server_caps.push: "webpush"` (the
// reference gateway, demo mode) gets the subscription itself. Any other gateway (a real one behind
// `--gateway`, which knows ntfy) gets `caps.push: "ntfy"` with a random topic on this server's relay,
// which turns what the gateway publishes there into Web Push. The server's VAPID key endpoint tells the
// app that this server has push at all. A gateway that says `fcm` or `none` cannot wake a browser at
// all (gatewayWake.ts): notifications are refused in words.
import type { FcmRegisterFrame, ServerCaps } from '../protocol';
import type { IrisDB } from '../store/db';
import { getSetting } from '../store/models/settings';
import { NOTIFICATION_BADGE, NOTIFICATION_ICON } from './icons';
import { withNotificationLock } from './notificationLock';
import { fetchVapidKey, relaySubscribe, relayUnsubscribe } from './relay';
import {
  clearPushRegistration,
  fromBase64url,
  getPushRegistration,
  randomTopic,
  registerPayload,
  setPushRegistration,
  toWebPushSubscription,
  type PushDelivery,
  type PushRegistration,
} from './registration';
import { gatewayCannotWake } from './gatewayWake';

export interface PushDeps {
  db: IrisDB;
  /** Sends fcm.register (client.registerPush); rejects when offline. */
  register(payload: FcmRegisterFrame['payload']): Promise<void>;
}

/** What the Settings section says. */
export type PushStatus = 'on' | 'off' | 'blocked' | 'unsupported';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/**
 * Why pushManager.subscribe failed, in words: browsers reject with terse texts such as
 * "Registration failed - permission denied" (no push service: a private window, a browser without one).
 */
function subscribeFailure(err: unknown): string {
  const name =
    err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException)
      ? (err as Error).name
      : '';
  if (name === 'NotAllowedError') {
    return 'This browser did not let Iris subscribe to notifications. In a private window, or a browser without a push service, notifications cannot work; try a normal window of Chrome, Edge or Firefox.';
  }
  if (name === 'AbortError' || name === 'NotSupportedError') {
    return 'The browser’s push service could not be reached, so notifications cannot be turned on now. Check the connection and try again.';
  }
  return 'The browser could not subscribe to notifications. Try again, or try another browser.';
}

function chooseDelivery(caps: ServerCaps | undefined): PushDelivery {
  return caps?.push === 'webpush' ? 'webpush' : 'ntfy';
}

/** The service worker's registration; notifications need it (production builds register /sw.js). */
async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration)
    throw new Error(
      'Notifications need the app’s service worker, which is not running here. Reload the page and try again.',
    );
  const ready = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<undefined>((r) => setTimeout(r, 10_000, undefined)),
  ]);
  if (!ready) throw new Error('The app’s service worker did not start. Reload the page and try again.');
  return ready;
}

function sameKey(subscription: PushSubscription, vapidKey: string): boolean {
  const key = subscription.options?.applicationServerKey;
  if (!key) return true; // unknown: keep it rather than churn
  const a = new Uint8Array(key);
  const b = fromBase64url(vapidKey);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Turns notifications on: asks for permission (only now, after the user's tap), subscribes, registers the
 * subscription where it must go, and tells the gateway. Returns whether the gateway was told now (false:
 * it is told on the next connection).
 */
export async function enablePush(deps: PushDeps): Promise<{ registration: PushRegistration; gatewayTold: boolean }> {
  const { db } = deps;
  if (!pushSupported()) throw new Error('This browser cannot show notifications from Iris.');
  let permission = Notification.permission;
  if (permission === 'default') permission = await Notification.requestPermission();
  if (permission === 'denied')
    throw new Error(
      'Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.',
    );
  if (permission !== 'granted') throw new Error('Notifications were not allowed.');
  const caps = await getSetting(db, 'serverCaps');
  if (!caps) throw new Error('Connect to the gateway once first, so Iris knows how the gateway can wake this device.');
  const cannot = gatewayCannotWake(caps);
  if (cannot) throw new Error(cannot);
  const mode = chooseDelivery(caps);
  const [worker, vapidKey] = await Promise.all([workerRegistration(), fetchVapidKey()]);

  let browserSubscription = await worker.pushManager.getSubscription();
  if (browserSubscription && !sameKey(browserSubscription, vapidKey)) {
    await browserSubscription.unsubscribe().catch(() => false); // subscribing anew replaces it anyway
    browserSubscription = null;
  }
  browserSubscription ??= await worker.pushManager
    .subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(vapidKey) })
    .catch((err: unknown) => {
      throw new Error(subscribeFailure(err));
    });
  const subscription = toWebPushSubscription(browserSubscription.toJSON());
  if (!subscription) throw new Error('The browser made a push subscription Iris cannot use.');

  const previous = await getPushRegistration(db);
  let registration: PushRegistration;
  if (mode === 'ntfy') {
    const topic = previous?.topic ?? randomTopic();
    await relaySubscribe(topic, subscription);
    if (previous?.mode === 'ntfy' && previous.subscription.endpoint !== subscription.endpoint) {
      await relayUnsubscribe(topic, previous.subscription.endpoint).catch((err: unknown) =>
        console.warn('iris: the relay kept an old subscription', err),
      );
    }
    registration = { mode, subscription, vapidKey, topic };
  } else {
    if (previous?.mode === 'ntfy')
      await relayUnsubscribe(previous.topic!, previous.subscription.endpoint).catch((err: unknown) =>
        console.warn('iris: the relay kept an old subscription', err),
      );
    registration = { mode, subscription, vapidKey };
  }
  await setPushRegistration(db, registration);
  const gatewayTold = await deps.register(registerPayload(registration)).then(
    () => true,
    () => false,
  );
  return { registration, gatewayTold };
}

/** Turns notifications off: unsubscribes here and at the relay, and tells the gateway `push: none`. */
export async function disablePush(deps: PushDeps): Promise<{ gatewayTold: boolean }> {
  const { db } = deps;
  const registration = await getPushRegistration(db);
  const worker = pushSupported() ? await navigator.serviceWorker.getRegistration().catch(() => undefined) : undefined; // no worker: no browser subscription to end
  const browserSubscription = await worker?.pushManager.getSubscription().catch(() => null); // none readable: none to end
  if (!registration && !browserSubscription) return { gatewayTold: true };
  if (registration?.mode === 'ntfy')
    await relayUnsubscribe(registration.topic!, registration.subscription.endpoint).catch((err: unknown) =>
      console.warn('iris: the relay kept the subscription', err),
    );
  await browserSubscription
    ?.unsubscribe()
    .catch((err: unknown) => console.warn('iris: the browser kept its push subscription', err));
  await clearPushRegistration(db);
  const gatewayTold = await deps.register(registerPayload(undefined)).then(
    () => true,
    () => false,
  );
  return { gatewayTold };
}

/**
 * Run at start: the browser may have dropped or replaced the subscription while no worker code ran
 * (permission revoked, a new subscription). Brings the stored registration and the gateway in line.
 */
export async function reconcilePush(deps: PushDeps): Promise<void> {
  const { db } = deps;
  const registration = await getPushRegistration(db);
  if (!registration || !pushSupported()) return;
  const worker = await navigator.serviceWorker.getRegistration();
  if (!worker) return;
  const current = Notification.permission === 'granted' ? await worker.pushManager.getSubscription() : null;
  if (!current) {
    await disablePush(deps);
    return;
  }
  const subscription = toWebPushSubscription(current.toJSON());
  if (!subscription || subscription.endpoint === registration.subscription.endpoint) return;
  if (registration.mode === 'ntfy') {
    await relaySubscribe(registration.topic!, subscription);
    await relayUnsubscribe(registration.topic!, registration.subscription.endpoint).catch((err: unknown) =>
      console.warn('iris: the relay kept an old subscription', err),
    );
  }
  const renewed = { ...registration, subscription };
  await setPushRegistration(db, renewed);
  await deps
    .register(registerPayload(renewed))
    .catch((err: unknown) =>
      console.warn('iris: the gateway was not told the renewed subscription (the next hello tells it)', err),
    );
}

/** A local notification through the service worker, exactly as a push would look. */
export async function sendTestNotification(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') throw new Error('Turn notifications on first.');
  const worker = await workerRegistration();
  await withNotificationLock(() =>
    worker.showNotification('Iris test notification', {
      body: 'Notifications from Iris will look like this.',
      tag: 'iris-test',
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      data: { kind: 'test', url: '/', count: 1 },
    }),
  );
}
