import type { WebPushSubscription } from '../../src/protocol';
import { endpointPolicy, endpointRefusal, type EndpointPolicy } from './endpoint-guard';

const MAX_ENDPOINT_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Checks a `PushSubscription.toJSON()` from an untrusted client and returns a clean copy, or a reason it is
 * unusable. The server POSTs to the endpoint, so it must pass `policy` (https, port 443, a push-service
 * host, not an internal address: see endpoint-guard.ts).
 */
export function checkSubscription(
  value: unknown,
  policy: EndpointPolicy = endpointPolicy(),
): { ok: true; subscription: WebPushSubscription } | { ok: false; reason: string } {
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'subscription must be an object' };
  const { endpoint, expirationTime, keys } = value as Record<string, unknown>;
  if (typeof endpoint !== 'string' || endpoint.length === 0)
    return { ok: false, reason: 'subscription.endpoint is missing' };
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return { ok: false, reason: 'subscription.endpoint is too long' };
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, reason: 'subscription.endpoint is not a URL' };
  }
  const refusal = endpointRefusal(url, policy);
  if (refusal) return { ok: false, reason: refusal };
  if (typeof keys !== 'object' || keys === null) return { ok: false, reason: 'subscription.keys is missing' };
  const { p256dh, auth } = keys as Record<string, unknown>;
  if (typeof p256dh !== 'string' || !BASE64URL.test(p256dh))
    return { ok: false, reason: 'subscription.keys.p256dh is not base64url' };
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) {
    return { ok: false, reason: 'subscription.keys.p256dh is not an uncompressed P-256 public key' };
  }
  if (typeof auth !== 'string' || !BASE64URL.test(auth))
    return { ok: false, reason: 'subscription.keys.auth is not base64url' };
  if (Buffer.from(auth, 'base64url').length !== 16)
    return { ok: false, reason: 'subscription.keys.auth must be 16 bytes' };
  const expires = typeof expirationTime === 'number' && Number.isFinite(expirationTime) ? expirationTime : null;
  return { ok: true, subscription: { endpoint, expirationTime: expires, keys: { p256dh, auth } } };
}

/** The endpoint's origin, the only part of an endpoint that may appear in logs (the path is a capability). */
export function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}
