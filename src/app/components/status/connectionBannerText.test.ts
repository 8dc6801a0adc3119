import { describe, expect, it } from 'vitest';
import { bannerMessage, gatewayHealth } from './connectionBannerText';

describe('connection banner', () => {
  it('reads the stored status frame in either shape and ignores anything else', () => {
    expect(gatewayHealth({ state: 'degraded', session: {} })).toBe('degraded');
    expect(gatewayHealth('restarting')).toBe('restarting');
    expect(gatewayHealth({ state: '<img onerror>' })).toBeUndefined();
    expect(gatewayHealth(undefined)).toBeUndefined();
  });

  it('says nothing when all is well, and offers re-pairing only after an auth failure', () => {
    expect(bannerMessage('online', 'online')).toBeUndefined();
    expect(bannerMessage('online', undefined)).toBeUndefined();
    expect(bannerMessage('pairing', undefined)).toBeUndefined();
    expect(bannerMessage('auth-failed', undefined)).toMatchObject({ tone: 'danger', repair: true });
    expect(bannerMessage('offline', 'degraded')?.text).toMatch(/^Offline/);
    expect(bannerMessage('connecting', undefined)?.text).toMatch(/Reconnecting/);
    expect(bannerMessage('online', 'degraded')?.text).toMatch(/trouble/);
    expect(bannerMessage('online', 'restarting')?.repair).toBeUndefined();
    // A long sync replay being stored, counted as it goes.
    expect(bannerMessage('online', 'online', undefined, { stored: 3400, total: 10_000 })?.text).toBe(
      'Catching up: 3,400 of 10,000',
    );
    expect(bannerMessage('online', 'degraded', undefined, { stored: 1, total: 2000 })?.text).toMatch(/trouble/);
    // A sync the gateway has not answered for a while; a replay under way says how far it is instead.
    expect(bannerMessage('online', 'online', undefined, undefined, true)?.text).toBe(
      'Connected, but the gateway has not answered yet. Messages are sent and loaded once it does.',
    );
    expect(bannerMessage('online', 'online', undefined, { stored: 5, total: 2000 }, true)?.text).toMatch(
      /^Catching up/,
    );
    expect(bannerMessage('offline', 'online', undefined, undefined, true)?.text).toMatch(/^Offline/);
  });
});
