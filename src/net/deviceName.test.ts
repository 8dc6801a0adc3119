import { describe, expect, it } from 'vitest';
import { deviceNameFrom } from './deviceName';
import { describeError } from './errors';

describe('deviceNameFrom', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on macOS'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    ['', 'Web browser'],
  ])('%s → %s', (ua, name) => {
    expect(deviceNameFrom(ua)).toBe(name);
  });
});

describe('describeError', () => {
  it('has plain words for every spec error code and a fallback', () => {
    for (const code of ['auth', 'not_found', 'rate_limited', 'media_too_large', 'unsupported', 'internal']) {
      expect(describeError(code)).toMatch(/^[A-Z].+\.$/);
      expect(describeError(code)).not.toContain(code);
    }
    expect(describeError('teapot')).toBe('The gateway reported an unexpected problem.');
  });
});
