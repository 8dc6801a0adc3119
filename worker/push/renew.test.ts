import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IrisDB } from '../../src/store/db';
import { getPushRegistration, setPushRegistration } from '../../src/push/registration';
import type { WebPushSubscription } from '../../src/protocol';
import { renewSubscription, type RenewDeps } from './renew';

const VAPID = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const sub = (n: number): WebPushSubscription => ({
  endpoint: `https://push.example/${n}`,
  expirationTime: null,
  keys: { p256dh: `key${n}`, auth: `auth${n}` },
});
let count = 0;

function deps(db: IrisDB, next: WebPushSubscription) {
  const calls: string[] = [];
  let keyBytes = 0;
  const d: RenewDeps = {
    db,
    subscribe: async (key) => {
      keyBytes = key.length;
      calls.push('subscribe');
      return { toJSON: () => next };
    },
    relaySubscribe: async (topic, s) => void calls.push(`relay+ ${topic} ${s.endpoint}`),
    relayUnsubscribe: async (topic, endpoint) => void calls.push(`relay- ${topic} ${endpoint}`),
    tellGateway: async () => void calls.push('hello'),
  };
  return { d, calls, keyBytes: () => keyBytes };
}

describe('renewing a changed subscription', () => {
  it('webpush: subscribes again with the stored VAPID key, stores it, says hello to the gateway', async () => {
    const db = new IrisDB(`renew-${process.pid}-${++count}`);
    await setPushRegistration(db, { mode: 'webpush', subscription: sub(1), vapidKey: VAPID });
    const { d, calls, keyBytes } = deps(db, sub(2));
    expect(await renewSubscription(d, null)).toBe('renewed');
    expect(keyBytes()).toBe(65);
    expect(calls).toEqual(['subscribe', 'hello']);
    expect((await getPushRegistration(db))?.subscription.endpoint).toBe('https://push.example/2');
  });

  it('ntfy: the relay gets the new endpoint for the same topic and forgets the old one', async () => {
    const db = new IrisDB(`renew-${process.pid}-${++count}`);
    const topic = 'AAAAAAAAAAAAAAAAAAAAAA';
    await setPushRegistration(db, { mode: 'ntfy', subscription: sub(1), vapidKey: VAPID, topic });
    const { d, calls } = deps(db, sub(9));
    expect(await renewSubscription(d, { toJSON: () => sub(3) })).toBe('renewed');
    expect(calls).toEqual([`relay+ ${topic} https://push.example/3`, `relay- ${topic} https://push.example/1`]);
    expect(await getPushRegistration(db)).toMatchObject({
      mode: 'ntfy',
      topic,
      subscription: { endpoint: 'https://push.example/3' },
    });
  });

  it('push off, or a subscription without keys: nothing is registered', async () => {
    const db = new IrisDB(`renew-${process.pid}-${++count}`);
    const { d, calls } = deps(db, sub(2));
    expect(await renewSubscription(d, null)).toBe('push-off');
    await setPushRegistration(db, { mode: 'webpush', subscription: sub(1), vapidKey: VAPID });
    expect(await renewSubscription(d, { toJSON: () => ({ endpoint: 'https://push.example/x' }) })).toBe('unusable');
    expect(calls).toEqual([]);
    expect((await getPushRegistration(db))?.subscription.endpoint).toBe('https://push.example/1');
  });
});
