// The serving process's push endpoints (server/push): its VAPID key, and the ntfy relay's subscription
// registry. Same origin as the app, so relative URLs work in a window and in the service worker alike.
import type { WebPushSubscription } from '../protocol';

const VAPID_KEY_URL = '/push/vapid-public-key';
const RELAY_SUBSCRIBE_URL = '/push/ntfy-subscribe';

const TIMEOUT_MS = 10_000;

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      cache: 'no-store',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new Error('The Iris server cannot be reached. Check your connection and try again.');
  }
  return res;
}

async function errorText(res: Response): Promise<string> {
  const text = (await res.text().catch(() => '')).trim(); // no body: the HTTP status says it
  try {
    const message = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    /* plain text */
  }
  return text.slice(0, 200) || `HTTP ${res.status}`;
}

/** The server's VAPID public key (base64url): the `applicationServerKey` of every subscription. */
export async function fetchVapidKey(): Promise<string> {
  const res = await call(VAPID_KEY_URL);
  if (res.status === 404) throw new Error('This Iris server does not offer notifications (no push endpoint).');
  if (!res.ok) throw new Error(`The Iris server could not hand out its push key (${await errorText(res)}).`);
  const body = (await res.json().catch(() => null)) as { publicKey?: unknown } | null; // not JSON: an unusable key, below
  const key = body?.publicKey;
  if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{80,100}$/.test(key))
    throw new Error('The Iris server sent an unusable push key.');
  return key;
}

/** Registers this browser's subscription for a relay topic (proxy mode). */
export async function relaySubscribe(topic: string, subscription: WebPushSubscription): Promise<void> {
  const res = await call(RELAY_SUBSCRIBE_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ topic, subscription }),
  });
  if (!res.ok) throw new Error(`The notification relay refused this browser (${await errorText(res)}).`);
}

/** Unregisters it; a topic the relay no longer knows counts as done. */
export async function relayUnsubscribe(topic: string, endpoint: string): Promise<void> {
  const res = await call(RELAY_SUBSCRIBE_URL, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ topic, endpoint }),
  });
  if (!res.ok && res.status !== 404)
    throw new Error(`The notification relay could not remove this browser (${await errorText(res)}).`);
}
