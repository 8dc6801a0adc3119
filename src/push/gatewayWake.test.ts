import { describe, expect, it } from 'vitest';
import { gatewayCannotWake } from './gatewayWake';

describe('whether the gateway can wake the app', () => {
  it('webpush, ntfy and an unstated push can; fcm and none cannot, and the sentence says why', () => {
    expect(gatewayCannotWake({ push: 'webpush' })).toBeUndefined();
    expect(gatewayCannotWake({ push: 'ntfy' })).toBeUndefined();
    expect(gatewayCannotWake({})).toBeUndefined();
    expect(gatewayCannotWake({ push: 'fcm' })).toMatch(/only through Firebase Cloud Messaging \(FCM\)/);
    expect(gatewayCannotWake({ push: 'none' })).toMatch(/sends no push notifications at all/);
  });
});
