import { describe, expect, it } from 'vitest';
import { jsonTextBytes, MAX_TEXT_FRAME_BYTES, textFitsInFrame } from './limits';

describe('jsonTextBytes', () => {
  it('counts exactly what JSON.stringify writes, in UTF-8', () => {
    const samples = [
      '',
      'plain',
      'a "quote" and \\ slash',
      'tab\tnew\nline\r\u0001\u001f',
      'é ü ß',
      '日本語',
      '🙂 emoji',
      'lone \ud800 surrogate',
      '\udc00x',
    ];
    for (const text of samples)
      expect(jsonTextBytes(text), JSON.stringify(text)).toBe(new TextEncoder().encode(JSON.stringify(text)).length);
  });
});

describe('textFitsInFrame', () => {
  it('keeps a 1 MB log in one frame and sends more as something else', () => {
    const line = '2026-12-01T09:00:00Z INFO handled request in 12 ms\n';
    const mb = line.repeat(Math.ceil(1_000_000 / line.length)).slice(0, 1_000_000);
    expect(textFitsInFrame(mb)).toBe(true);
    expect(textFitsInFrame(mb + line.repeat(2000))).toBe(false);
  });

  it('counts escapes and multi-byte characters, not UTF-16 units', () => {
    const quotes = '"'.repeat(600_000); // 600,000 units, 1.2 MB once escaped
    expect(textFitsInFrame(quotes)).toBe(false);
    expect(textFitsInFrame('日'.repeat(340_000))).toBe(true); // 1,020,002 bytes
    expect(textFitsInFrame('日'.repeat(350_000))).toBe(false);
    expect(MAX_TEXT_FRAME_BYTES).toBe(1024 * 1024);
  });
});
