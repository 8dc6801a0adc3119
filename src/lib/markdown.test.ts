// The URL rules of message Markdown (pure parts; rendering itself is tested in the browser, e2e/hostile/xss.spec.ts).
import { describe, expect, it } from 'vitest';
import { isAllowedImageSrc, safeLinkHref } from './markdown';
import { escapeHtml } from './safeText';

describe('safeLinkHref', () => {
  it('keeps web and mail links and app-relative paths', () => {
    expect(safeLinkHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeLinkHref('http://example.com')).toBe('http://example.com');
    expect(safeLinkHref('mailto:me@example.com')).toBe('mailto:me@example.com');
    expect(safeLinkHref('/media/abc')).toBe('/media/abc');
  });
  it('refuses script, data and other schemes, however written', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0000javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'blob:http://localhost/x',
    ]) {
      expect(safeLinkHref(href), href).toBeUndefined();
    }
    expect(safeLinkHref('')).toBeUndefined();
    expect(safeLinkHref(undefined)).toBeUndefined();
  });
});

describe('pairing links in messages', () => {
  it('are never links: in a message, a pairing link would replace the gateway and token', () => {
    // Under node there is no location: links resolve against http://localhost/, the "app" here.
    for (const href of [
      '#/pair?url=wss%3A%2F%2Fevil.example%2Fws&token=x',
      '/#/pair?url=x&token=y',
      'http://localhost/#/pair?url=x&token=y',
      'http://localhost/#//pair/?token=y',
      'http://localhost/#/%70air?token=y',
      'http://localhost/#/PAIR',
    ]) {
      expect(safeLinkHref(href), href).toBeUndefined();
    }
    expect(safeLinkHref('#/c/web%3Ademo')).toBe('#/c/web%3Ademo');
    expect(safeLinkHref('#/pairing-notes')).toBe('#/pairing-notes');
    expect(safeLinkHref('https://elsewhere.example/#/pair?token=x')).toBe('https://elsewhere.example/#/pair?token=x');
  });
});

describe('isAllowedImageSrc', () => {
  it('allows only the app origin under /media/', () => {
    expect(isAllowedImageSrc('/media/abc')).toBe(true);
    expect(isAllowedImageSrc('http://localhost/media/abc')).toBe(true);
  });
  it('refuses other hosts, other paths, escapes and data URLs', () => {
    for (const src of [
      'http://evil.example/media/x.png',
      '//evil.example/media/x.png',
      'http://localhost.evil.example/media/x.png',
      '/api/x.png',
      '/media/../secret',
      '/media/%2e%2e/secret',
      '/media\\..\\secret',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isAllowedImageSrc(src), src).toBe(false);
    }
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });
});
