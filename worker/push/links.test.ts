import { describe, expect, it } from 'vitest';
import { laneOfWindowUrl, laneUrl, sameOriginUrl } from './links';

describe('lane addresses', () => {
  it('builds the app’s hash route, threads under their parent, the message to scroll to', () => {
    expect(laneUrl({ chat_id: 'web:default' })).toBe('/#/c/web%3Adefault');
    expect(laneUrl({ chat_id: 'c', thread_id: 't', message_id: 'm' })).toBe('/#/c/c/t/t?m=m');
    expect(laneUrl({ chat_id: 'c', lane: 't' })).toBe('/#/c/c/t/t');
    expect(laneUrl({})).toBe('/');
  });

  it('reads the lane a window shows from its URL', () => {
    expect(laneOfWindowUrl('https://a.example/#/c/c1')).toBe('c1');
    expect(laneOfWindowUrl('https://a.example/#/c/c1/t/t1?m=x')).toBe('t1');
    expect(laneOfWindowUrl('https://a.example/#/c/web%3Adefault')).toBe('web:default');
    expect(laneOfWindowUrl('https://a.example/#/settings')).toBeUndefined();
    expect(laneOfWindowUrl('not a url')).toBeUndefined();
  });

  it('keeps only same-origin URLs', () => {
    expect(sameOriginUrl('https://a.example/#/c/x', 'https://a.example')).toBe('https://a.example/#/c/x');
    expect(sameOriginUrl('/#/c/x', 'https://a.example')).toBe('https://a.example/#/c/x');
    expect(sameOriginUrl('https://a.example.evil.test/', 'https://a.example')).toBeUndefined();
    expect(sameOriginUrl('javascript:alert(1)', 'https://a.example')).toBeUndefined();
    expect(sameOriginUrl(undefined, 'https://a.example')).toBeUndefined();
  });

  it('never opens the pairing screen: a click must not replace the gateway and token', () => {
    expect(
      sameOriginUrl('https://a.example/#/pair?url=wss%3A%2F%2Fevil.example%2Fws&token=t', 'https://a.example'),
    ).toBeUndefined();
    expect(sameOriginUrl('/#/pair', 'https://a.example')).toBeUndefined();
    expect(sameOriginUrl('https://a.example/#/%70air?token=t', 'https://a.example')).toBeUndefined();
  });
});
