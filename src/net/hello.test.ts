// The hello frame both the app and the service worker send (spec README §3), asking for replay batches
// (server/gateway/README.md).
import { describe, expect, it } from 'vitest';
import { helloFrame } from './hello';

describe('hello', () => {
  it('one builder for the app and the service worker: push details when given, the name only when known', () => {
    const webpush = { endpoint: 'https://push.example/1', expirationTime: null, keys: { p256dh: 'k', auth: 'a' } };
    expect(helloFrame({ token: 't', deviceId: 'd', deviceName: 'Phone' }, { push: 'none' })).toEqual({
      type: 'hello',
      payload: {
        token: 't',
        device_id: 'd',
        device_name: 'Phone',
        caps: { min_protocol: 1, media: true, push: 'none', batches: true },
      },
    });
    expect(helloFrame({ token: 't', deviceId: 'd' }, { push: 'webpush', webpush }).payload).toEqual({
      token: 't',
      device_id: 'd',
      caps: { min_protocol: 1, media: true, push: 'webpush', batches: true },
      webpush,
    });
  });
});
