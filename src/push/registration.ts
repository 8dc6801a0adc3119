// How this device asked to be woken, kept in the settings table: every hello repeats it (the app's and
// the service worker's own short connection), and the service worker renews it on pushsubscriptionchange.
// Shared by the app, the client facade and the service worker; IndexedDB only, no browser push APIs here.
import type { FcmRegisterFrame, HelloFrame, PushMode, WebPushSubscription } from '../protocol';
import type { IrisDB } from '../store/db';
import { isObject } from '../protocol/guards';

/** The settings row (this module's own key; forgetting the gateway clears it with the other settings). */
export const PUSH_REGISTRATION_KEY = 'pushRegistration';

/**
 * `webpush`: the gateway pushes to the browser itself (this project's extension, spec README §13).
 * `ntfy`: a gateway that only knows ntfy publishes to a random topic on this server's relay, which
 * forwards it as Web Push (proxy mode, server/push/README.md).
 */
export type PushDelivery = 'webpush' | 'ntfy';

export interface PushRegistration {
  mode: PushDelivery;
  subscription: WebPushSubscription;
  /** The VAPID public key (base64url) the subscription was made with: needed to subscribe again. */
  vapidKey: string;
  /** ntfy mode: the random 128-bit topic registered with the relay and the gateway. */
  topic?: string;
}

const MAX_FIELD = 4096;
const TOPIC = /^[A-Za-z0-9_-]{22,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function field(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD;
}

/** A `PushSubscription.toJSON()` the gateway can use (https endpoint in real browsers, keys present), or undefined. */
export function toWebPushSubscription(value: unknown): WebPushSubscription | undefined {
  if (!isObject(value) || !field(value.endpoint) || !/^https?:\/\//i.test(value.endpoint)) return undefined;
  const keys = value.keys;
  if (!isObject(keys) || !field(keys.p256dh) || !field(keys.auth)) return undefined;
  const expirationTime = typeof value.expirationTime === 'number' ? value.expirationTime : null;
  return { endpoint: value.endpoint, expirationTime, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

function toRegistration(value: unknown): PushRegistration | undefined {
  if (!isObject(value) || (value.mode !== 'webpush' && value.mode !== 'ntfy')) return undefined;
  const subscription = toWebPushSubscription(value.subscription);
  if (!subscription || !field(value.vapidKey) || !BASE64URL.test(value.vapidKey)) return undefined;
  if (value.mode === 'ntfy') {
    if (typeof value.topic !== 'string' || !TOPIC.test(value.topic)) return undefined;
    return { mode: 'ntfy', subscription, vapidKey: value.vapidKey, topic: value.topic };
  }
  return { mode: 'webpush', subscription, vapidKey: value.vapidKey };
}

/** The stored registration; a damaged row reads as none (push off) rather than breaking hello. */
export async function getPushRegistration(db: IrisDB): Promise<PushRegistration | undefined> {
  return toRegistration((await db.settings.get(PUSH_REGISTRATION_KEY))?.value);
}

export async function setPushRegistration(db: IrisDB, registration: PushRegistration): Promise<void> {
  if (!toRegistration(registration)) throw new Error('That push subscription cannot be used (no endpoint or keys).');
  await db.settings.put({ key: PUSH_REGISTRATION_KEY, value: registration });
}

export async function clearPushRegistration(db: IrisDB): Promise<void> {
  await db.settings.delete(PUSH_REGISTRATION_KEY);
}

/** What `fcm.register` carries for a registration (none: push off). */
export function registerPayload(registration: PushRegistration | undefined): FcmRegisterFrame['payload'] {
  if (!registration) return { push: 'none' };
  if (registration.mode === 'ntfy') return { push: 'ntfy', ntfy_topic: registration.topic! };
  return { push: 'webpush', webpush: registration.subscription };
}

/** caps.push and its address for hello (spec README §13); the shape of net/hello's PushHello. */
export type HelloPush = { push: PushMode } & Pick<HelloFrame['payload'], 'webpush' | 'ntfy_topic'>;

/** caps.push and its address for hello (spec README §13): the same facts as fcm.register. */
export async function pushHello(db: IrisDB): Promise<HelloPush> {
  const payload = registerPayload(await getPushRegistration(db));
  return {
    push: payload.push ?? 'none',
    ...(payload.webpush && { webpush: payload.webpush }),
    ...(payload.ntfy_topic && { ntfy_topic: payload.ntfy_topic }),
  };
}

/** A relay topic: 128 random bits, base64url (22 characters), as the relay expects. */
export function randomTopic(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return base64url(bytes);
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
