import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../testing/db';
import {
  PUSH_REGISTRATION_KEY,
  base64url,
  fromBase64url,
  getPushRegistration,
  pushHello,
  randomTopic,
  registerPayload,
  setPushRegistration,
} from './registration';

const subscription = {
  endpoint: 'https://push.example/1',
  expirationTime: null,
  keys: { p256dh: 'BPk', auth: 'YXV0aA' },
};
const db = freshDb;

describe('the stored push registration', () => {
  it('hello and fcm.register say the same thing, per mode', async () => {
    const d = db();
    expect(await pushHello(d)).toEqual({ push: 'none' });
    await setPushRegistration(d, { mode: 'webpush', subscription, vapidKey: 'BKey' });
    expect(await pushHello(d)).toEqual({ push: 'webpush', webpush: subscription });
    const topic = randomTopic();
    await setPushRegistration(d, { mode: 'ntfy', subscription, vapidKey: 'BKey', topic });
    expect(await pushHello(d)).toEqual({ push: 'ntfy', ntfy_topic: topic });
    expect(registerPayload(await getPushRegistration(d))).toEqual({ push: 'ntfy', ntfy_topic: topic });
    expect(registerPayload(undefined)).toEqual({ push: 'none' });
  });

  it('a damaged row reads as push off; an unusable subscription is refused', async () => {
    const d = db();
    await d.settings.put({
      key: PUSH_REGISTRATION_KEY,
      value: { mode: 'ntfy', subscription, vapidKey: 'BKey', topic: 'short' },
    });
    expect(await getPushRegistration(d)).toBeUndefined();
    await d.settings.put({ key: PUSH_REGISTRATION_KEY, value: 'junk' });
    expect(await pushHello(d)).toEqual({ push: 'none' });
    await expect(
      setPushRegistration(d, {
        mode: 'webpush',
        subscription: { ...subscription, endpoint: 'ftp://x' },
        vapidKey: 'BKey',
      }),
    ).rejects.toThrow(/cannot be used/);
  });

  it('topics are 128 random bits in base64url, as the relay requires', () => {
    const a = randomTopic();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomTopic()).not.toBe(a);
    expect(fromBase64url(a)).toHaveLength(16);
    expect(base64url(fromBase64url(a))).toBe(a);
  });
});
